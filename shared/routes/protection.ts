/** Who may read a source: its unlock codes, its block list and the devices' own feed URLs. */
import type { RouteDefinition } from './definitions';

export const unlockCodesRoute = {
  function: 'unlock-codes',
  methods: ['GET', 'POST'],
  path: '/api/appstore/manage/sources/{source_id}/unlock-codes',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "List a source's unlock codes (GET) or create a batch of them (POST)",
  data: { read: ['sources', 'subscriptions', 'plans'], write: ['sourceProtection'] },
} as const satisfies RouteDefinition;

export const listBlocklistRoute = {
  function: 'list-blocklist',
  methods: ['GET'],
  path: '/api/appstore/manage/sources/{source_id}/blocklist',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "A source's blocked devices and misuse monitor",
  data: { read: ['sources', 'sourceProtection'] },
} as const satisfies RouteDefinition;

export const blocklistEntryRoute = {
  function: 'blocklist-entry',
  methods: ['PUT', 'DELETE'],
  path: '/api/appstore/manage/sources/{source_id}/blocklist/{udid}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Block a device from a source by hand (PUT) or take it off the block list (DELETE)',
  data: { read: ['sources', 'subscriptions', 'plans'], write: ['sourceProtection'] },
} as const satisfies RouteDefinition;

export const deviceUrlRoute = {
  function: 'device-url',
  methods: ['GET', 'DELETE'],
  path: '/api/appstore/manage/sources/{source_id}/device-url',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "A device's own feed URL on the source (GET, issuing its device key once) or its revocation (DELETE)",
  data: { read: ['sources'], write: ['sourceProtection'] },
} as const satisfies RouteDefinition;
