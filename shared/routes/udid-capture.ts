/** Getting a device's UDID: the profile, the device's callback, the install page and the captures. */
import type { RouteDefinition } from './definitions';

export const udidProfileRoute = {
  function: 'udid-profile',
  methods: ['GET'],
  path: '/api/udid/profile',
  auth: 'none',
  rateLimit: null,
  ipLimits: [{ limit: 60, window: 'minute' }],
  envelope: 'page',
  description: "The tenant's Profile Service profile (.mobileconfig): installing it sends the device's UDID, signed by the device",
  // udidCapture: the tenant's capture keys are made on first use.
  data: { read: ['users'], write: ['udidCapture'] },
  secrets: true,
} as const satisfies RouteDefinition;

export const sourceUdidProfileRoute = {
  function: 'source-udid-profile',
  methods: ['GET'],
  path: '/api/rjy/{source_id}/udid.mobileconfig',
  auth: 'none',
  rateLimit: null,
  ipLimits: [{ limit: 60, window: 'minute', perPathParam: 'source_id' }],
  envelope: 'page',
  description: "A source's Profile Service profile: the capture returns to the source's install page (or to return)",
  data: { read: ['users', 'sources'], write: ['udidCapture'] },
  secrets: true,
} as const satisfies RouteDefinition;

export const udidCallbackRoute = {
  function: 'udid-callback',
  methods: ['POST'],
  path: '/api/udid/callback',
  auth: 'none',
  rateLimit: null,
  // Per IP: customers behind one carrier NAT capture their UDIDs through the same address.
  ipLimits: [{ limit: 120, window: 'minute' }],
  envelope: 'page',
  description: "The device's signed answer to a Profile Service profile: verified, recorded, answered 301 to the return target",
  // counters: a capture through a source's page counts as an install of that source's day (stats by=app).
  data: { write: ['udidCapture', 'events', 'counters'] },
  secrets: true,
  rawBody: true,
} as const satisfies RouteDefinition;

export const installPageRoute = {
  function: 'install-page',
  methods: ['GET'],
  path: '/api/rjy/{source_id}/install',
  auth: 'none',
  rateLimit: null,
  ipLimits: [{ limit: 600, window: 'minute', perPathParam: 'source_id' }],
  envelope: 'page',
  description: "A source's install page for customers: get the UDID, then add the source to a signer app in one tap; once the device is proven, its certificates, downloads and the activation-code form",
  // udidCapture: the one-time ticket is spent and the session written there; devices: the proven UDID's certificates.
  data: { read: ['sources', 'devices', 'users'], write: ['sourceProtection', 'udidCapture'] },
} as const satisfies RouteDefinition;

export const udidCapturesRoute = {
  function: 'udid-captures',
  methods: ['GET', 'POST'],
  path: '/api/udid/captures',
  auth: 'token',
  rateLimit: 60,
  envelope: 'device',
  description: "The caller's UDID captures on this tenant (through their sources or their tenant profile), newest first",
  data: { read: ['udidCapture'] },
} as const satisfies RouteDefinition;
