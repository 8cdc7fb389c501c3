/** The add: the current route and the two legacy ones, one endpoint for limiting and one implementation. */
import { addTablesAnd, type RouteDefinition } from './definitions';

/** Beside what any add touches: the source a `source_id` names, and its device key for the feed URL. */
const addData = /* @__PURE__ */ addTablesAnd({ read: ['sources'], write: ['sourceProtection'] });

export const addDeviceRoute = {
  function: 'add-device',
  rateLimitGroup: 'add-device',
  methods: ['GET', 'POST'],
  path: '/api/adddevice/v2',
  auth: 'token',
  writesOnGet: true,
  rateLimit: 60,
  // The user's certificates of the UDID read while the count is made; the add lock (the first write, before any
  // payment or Apple call) waits for it.
  limitAlongside: true,
  envelope: 'add',
  description: 'Add a device (instant or review)',
  data: addData,
  secrets: true,
} as const satisfies RouteDefinition;

export const addDeviceLegacyInstantRoute = {
  function: 'add-device-legacy-instant',
  rateLimitGroup: 'add-device',
  methods: ['GET', 'POST'],
  path: '/api/adddevice',
  auth: 'token',
  writesOnGet: true,
  rateLimit: 60,
  // The user's certificates of the UDID read while the count is made; the add lock (the first write, before any
  // payment or Apple call) waits for it.
  limitAlongside: true,
  envelope: 'add',
  description: 'Legacy instant add',
  data: addData,
  secrets: true,
} as const satisfies RouteDefinition;

export const addDeviceLegacyReviewRoute = {
  function: 'add-device-legacy-review',
  rateLimitGroup: 'add-device',
  methods: ['GET', 'POST'],
  path: '/api/addyydevice',
  auth: 'token',
  writesOnGet: true,
  rateLimit: 60,
  // The user's certificates of the UDID read while the count is made; the add lock (the first write, before any
  // payment or Apple call) waits for it.
  limitAlongside: true,
  envelope: 'add',
  description: 'Legacy review (reservation) add',
  data: addData,
  secrets: true,
} as const satisfies RouteDefinition;
