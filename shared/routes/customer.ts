/** The customer's page and what a proven device does from it. */
import { addTablesAnd, type RouteDefinition } from './definitions';

/** The customer's page without a source (the tenant's), and what a proven device can do from either page. */
export const customerPageRoute = {
  function: 'customer-page',
  methods: ['GET'],
  path: '/api/customer',
  auth: 'none',
  rateLimit: null,
  ipLimits: [{ limit: 600, window: 'minute' }],
  envelope: 'page',
  description: "The tenant's customer page (or an agent's storefront): get the UDID, then (proven by the Profile Service) the device's certificates, downloads, re-issues and the activation-code form",
  data: { read: ['devices', 'users'], write: ['udidCapture'] },
} as const satisfies RouteDefinition;

export const customerDownloadRoute = {
  function: 'customer-download',
  methods: ['GET'],
  path: '/api/customer/download',
  auth: 'session',
  rateLimit: null,
  ipLimits: [{ limit: 60, window: 'minute' }],
  envelope: 'page',
  description: "A zip of one of the proven device's certificates: certificate.p12, profile.mobileprovision, password.txt",
  data: { read: ['udidCapture', 'devices'] },
} as const satisfies RouteDefinition;

/**
 * What a proven device does from its page, one function for both (one stack resource set, not two; the stack
 * is near CloudFormation's 500 resources): `redeem` a reseller's activation code — the add the code's owner
 * would make with it — or `reissue` a revoked certificate free under its warranty.
 */
export const customerActionRoute = {
  function: 'customer-action',
  methods: ['POST'],
  path: '/api/customer/{action}',
  auth: 'session',
  rateLimit: null,
  operations: [{ name: 'redeem', param: 'code' }],
  // Failed redeems of a code per IP per hour (a guessed code fails), beside the per-device and per-tenant hours
  // of the service.
  ipLimits: [
    { limit: 10, window: 'hour', counts: 'failures', operation: 'redeem' },
    { limit: 60, window: 'minute' },
  ],
  envelope: 'page',
  description: "Redeem an activation code (the add the code's owner would make) or take the free re-issue of a revoked certificate, for the proven device",
  // rateLimits: the service's per-device and per-tenant hours of redeems and re-issues.
  data: /* @__PURE__ */ addTablesAnd({ write: ['rateLimits'] }),
  secrets: true,
} as const satisfies RouteDefinition;
