/** A reseller's devices: status, info and the list. */
import type { RouteDefinition } from './definitions';

export const deviceStatusRoute = {
  function: 'device-status',
  methods: ['GET', 'POST'],
  path: '/api/device/status',
  auth: 'token',
  rateLimit: 60,
  envelope: 'device',
  description: 'Enable, disable or toggle a device',
  data: { write: ['devices', 'disabledDevices'] },
} as const satisfies RouteDefinition;

export const deviceInfoRoute = {
  function: 'device-info',
  methods: ['GET', 'POST'],
  path: '/api/device/info',
  auth: 'token',
  rateLimit: 120,
  // Not counted alongside: with `source_id` the answer may issue the device's key (a write), and a refused
  // request must change nothing. Still 3 calls without it.
  envelope: 'device',
  description: 'Read a device',
  data: { read: ['devices', 'sources'], write: ['sourceProtection'] },
} as const satisfies RouteDefinition;

export const deviceListRoute = {
  function: 'device-list',
  methods: ['GET', 'POST'],
  path: '/api/device/list',
  auth: 'token',
  rateLimit: 60,
  envelope: 'device',
  description: "List the caller's devices, newest first, filtered and a page at a time",
  data: { read: ['devices'] },
} as const satisfies RouteDefinition;
