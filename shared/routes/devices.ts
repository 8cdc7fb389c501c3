/** A reseller's devices: status, info and the list. */
import type { RouteDefinition } from './definitions';

export const deviceStatusRoute = {
  function: 'device-status',
  methods: ['GET', 'POST'],
  path: '/api/device/status',
  auth: 'token',
  writesOnGet: true,
  rateLimit: 60,
  // The certificate is read with the token; the count rides in the transaction that sets it.
  countInTransaction: true,
  envelope: 'device',
  description: 'Enable, disable or toggle a device',
  // counters: the owner's count of disabled devices moves in the same transaction (the dashboard's figures).
  data: { write: ['devices', 'disabledDevices', 'counters'] },
} as const satisfies RouteDefinition;

export const deviceInfoRoute = {
  function: 'device-info',
  methods: ['GET', 'POST'],
  path: '/api/device/info',
  auth: 'token',
  rateLimit: 120,
  // The device (and the source) read while the count is made; with `source_id` the device's key may be issued,
  // a write the gate holds until the count is in.
  limitAlongside: true,
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
  // accounts: the `account_id` filter checks the account is the caller's own; users: the `agent` filter checks
  // the agent is the caller's own.
  data: { read: ['devices', 'accounts', 'users'] },
} as const satisfies RouteDefinition;
