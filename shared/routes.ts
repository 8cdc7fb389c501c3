/**
 * The one route table. The CDK stack builds one Lambda function and one API Gateway method per entry;
 * the local runtime serves the same entries by invoking the same handler modules.
 *
 * `function` names the folder `functions/<function>/handler.ts`. The entries look alike on purpose: the table
 * is data, one declaration per route, and what varies between routes is exactly what each entry spells out.
 */
import type { TableKey } from './db/tables';
import type { WindowKind } from './limit-windows';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** bearer: `Authorization: Bearer <token>`; token: a `token` parameter in query or body; none: public. */
export type AuthKind = 'bearer' | 'token' | 'none';

/**
 * management: `code msg time data`, HTTP status follows the error;
 * device: adds `ip` and `ysucc`, business errors answer HTTP 200;
 * add: the device envelope where every failure is code 0 with `data.error`;
 * feed: the public source feed and download gate: documents and redirects for sideloading clients, errors in
 * the management envelope.
 * unlock: a signer app redeeming an unlock code: the management envelope, but every refusal is code 0 (HTTP
 * 200, 429 when limited), since those clients read `code`.
 * page: a page or file a person's browser or iPhone opens (install page, profile, the device's callback): the
 * function answers raw, and a refusal is a short HTML page in the request language with the management
 * table's HTTP status.
 */
export type EnvelopeKind = 'management' | 'device' | 'add' | 'feed' | 'unlock' | 'page';

/**
 * One of several kinds of request a route serves, told apart by what the request carries. A route's
 * operations are tried in order and the first that matches names the request's operation; one with neither
 * `param` nor `method` matches every request.
 */
export interface RouteOperation {
  name: string;
  /** The request carries this parameter (query or body), whatever its value. */
  param?: string;
  method?: HttpMethod;
  /** The envelope of this operation's answers, when it is not the route's. */
  envelope?: EnvelopeKind;
}

/**
 * A limit on a public route, counted per caller IP in a calendar window; with `perPathParam`, separately
 * for each value of that path parameter (e.g. per source), so one busy source does not starve another.
 */
export interface IpLimit {
  limit: number;
  window: WindowKind;
  perPathParam?: string;
  /** Only requests of this operation (see `operations`) are counted and limited; without it, every request. */
  operation?: string;
  /**
   * `failures`: only requests that fail use up the limit (a success gives its count back), and once it is
   * used up every request of the operation is refused until the window ends. Default: every request counts.
   */
  counts?: 'all' | 'failures';
  /**
   * One counter for every caller (per path parameter when `perPathParam` is set): a ceiling that rotating
   * addresses cannot get around, beside the per-IP limits.
   */
  everyone?: true;
  /**
   * Counted while the business code runs instead of before it, which saves the request a round trip of
   * latency. Only for reads that write nothing a refusal would have to undo: a refused request still answers
   * 429 (the business answer is dropped). Not with `counts: 'failures'`.
   */
  alongside?: true;
}

export interface RouteDefinition {
  function: string;
  methods: readonly HttpMethod[];
  /** API Gateway resource path, `{name}` for path parameters. */
  path: string;
  auth: AuthKind;
  /** Requests per minute per token owner; null where the route is public. */
  rateLimit: number | null;
  /**
   * Routes that share one budget name the same group (the three add routes are one endpoint for limiting:
   * a user gets 60 adds a minute in all, not 60 on each). Without it, the route's function is its group.
   */
  rateLimitGroup?: string;
  /**
   * The per-user limit is counted alongside the business code instead of before it, which saves the request
   * one DynamoDB round trip of latency. Only for routes whose business code is a single key read and never a
   * write (no `data.write`; the chain refuses the flag otherwise), so a refused request still answers 429
   * and has changed nothing: it has read one item at most.
   */
  limitAlongside?: true;
  /** Public routes' limits per caller IP; each that applies to the request must allow it. */
  ipLimits?: readonly IpLimit[];
  /** The kinds of request the route serves, when it serves several (its function reads the request's). */
  operations?: readonly RouteOperation[];
  envelope: EnvelopeKind;
  description: string;
  /**
   * The tables the function's own code touches, beyond what the shared chain needs (the tenant and token
   * lookups, rate-limit counters). The CDK stack grants exactly these.
   */
  data: { read?: readonly TableKey[]; write?: readonly TableKey[] };
  /** Whether the function decrypts Apple account secrets (KMS). */
  secrets?: boolean;
  /** Seconds the function may run, where the default (10 s; 28 s with secrets) is not enough. */
  timeoutSeconds?: number;
  /**
   * The body is not parameters but a document the function reads itself from the event (a device's DER
   * answer): the chain still limits its size, and leaves a body no parser understood to the function.
   */
  rawBody?: true;
}

/**
 * Tables the shared middleware chain touches: the tenant of the Host on every route, the token on routes that
 * authenticate one, the counters on limited routes.
 */
export const chainTableAccess = { tenant: ['tenants', 'tenantHosts'], token: ['tokens'], write: ['rateLimits'] } as const satisfies {
  tenant: readonly TableKey[];
  token: readonly TableKey[];
  write: readonly TableKey[];
};

/*
 * One constant per route, so a function's bundle carries its own entry and not the whole table (the handler
 * imports its constant); `routes` lists them all for the stack, the local runtime and the contract.
 */
export const publishAppRoute = {
  function: 'publish-app',
  methods: ['POST'],
  path: '/api/appstore/manage/sources/{source_id}/apps/{app_id}/publish',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Publish an app draft',
  data: { read: ['subscriptions', 'plans'], write: ['sources', 'apps', 'ipaInspections', 'sourceFeeds'] },
} as const satisfies RouteDefinition;

export const createAppRoute = {
  function: 'create-app',
  methods: ['POST'],
  path: '/api/appstore/manage/sources/{source_id}/apps',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Create an app draft',
  data: { read: ['subscriptions', 'plans'], write: ['sources', 'apps', 'ipaInspections'] },
} as const satisfies RouteDefinition;

export const updateAppRoute = {
  function: 'update-app',
  methods: ['PATCH'],
  path: '/api/appstore/manage/sources/{source_id}/apps/{app_id}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Edit an app (a published one: its presentation only)',
  data: { read: ['sources', 'subscriptions', 'plans'], write: ['apps', 'ipaInspections', 'sourceFeeds'] },
} as const satisfies RouteDefinition;

export const unpublishAppRoute = {
  function: 'unpublish-app',
  methods: ['POST'],
  path: '/api/appstore/manage/sources/{source_id}/apps/{app_id}/unpublish',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Take a published app out of the feed (it becomes a draft)',
  data: { write: ['sources', 'apps', 'sourceFeeds'] },
} as const satisfies RouteDefinition;

export const updateSourceRoute = {
  function: 'update-source',
  methods: ['PATCH'],
  path: '/api/appstore/manage/sources/{source_id}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Update source settings',
  data: { read: ['subscriptions', 'plans'], write: ['sources'] },
} as const satisfies RouteDefinition;

export const sourceHealthRoute = {
  function: 'source-health',
  methods: ['GET'],
  path: '/api/appstore/manage/sources/{source_id}/health',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Link health of a source: the last probe of each published app',
  data: { read: ['sources', 'apps', 'linkHealth'] },
} as const satisfies RouteDefinition;

export const sourceHealthCheckRoute = {
  function: 'source-health-check',
  methods: ['POST'],
  path: '/api/appstore/manage/sources/{source_id}/health/check',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Probe the download links of a source now (at most 25 apps or 20 s per call)',
  data: { read: ['sources', 'apps'], write: ['linkHealth'] },
  // 20 s of probing, then any alert deliveries; API Gateway gives up at 29 s.
  timeoutSeconds: 28,
} as const satisfies RouteDefinition;

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

export const addDeviceRoute = {
  function: 'add-device',
  rateLimitGroup: 'add-device',
  methods: ['GET', 'POST'],
  path: '/api/adddevice/v2',
  auth: 'token',
  rateLimit: 60,
  envelope: 'add',
  description: 'Add a device (instant or review)',
  data: { read: ['prices', 'udidCapture', 'sources'], write: ['devices', 'users', 'counters', 'accounts', 'codes', 'reservations', 'addLocks', 'paymentHolds', 'registrations', 'ledger', 'events', 'sourceProtection'] },
  secrets: true,
} as const satisfies RouteDefinition;

export const addDeviceLegacyInstantRoute = {
  function: 'add-device-legacy-instant',
  rateLimitGroup: 'add-device',
  methods: ['GET', 'POST'],
  path: '/api/adddevice',
  auth: 'token',
  rateLimit: 60,
  envelope: 'add',
  description: 'Legacy instant add',
  data: { read: ['prices', 'udidCapture', 'sources'], write: ['devices', 'users', 'counters', 'accounts', 'codes', 'reservations', 'addLocks', 'paymentHolds', 'registrations', 'ledger', 'events', 'sourceProtection'] },
  secrets: true,
} as const satisfies RouteDefinition;

export const addDeviceLegacyReviewRoute = {
  function: 'add-device-legacy-review',
  rateLimitGroup: 'add-device',
  methods: ['GET', 'POST'],
  path: '/api/addyydevice',
  auth: 'token',
  rateLimit: 60,
  envelope: 'add',
  description: 'Legacy review (reservation) add',
  data: { read: ['prices', 'udidCapture', 'sources'], write: ['devices', 'users', 'counters', 'accounts', 'codes', 'reservations', 'addLocks', 'paymentHolds', 'registrations', 'ledger', 'events', 'sourceProtection'] },
  secrets: true,
} as const satisfies RouteDefinition;

export const sourceFeedRoute = {
  function: 'source-feed',
  methods: ['GET', 'POST'],
  path: '/api/rjy/{source_id}/appstore',
  auth: 'none',
  rateLimit: null,
  // A request with a `code` is an unlock (GET or POST), any other POST a misuse report, the rest feed reads.
  operations: [
    { name: 'unlock', param: 'code', envelope: 'unlock' },
    { name: 'report', method: 'POST' },
    { name: 'read' },
  ],
  ipLimits: [
    { operation: 'read', limit: 600, window: 'minute', perPathParam: 'source_id', alongside: true },
    { operation: 'report', limit: 60, window: 'minute', perPathParam: 'source_id' },
    // Per source, whoever asks (first, so its refusal is not counted as a failed unlock): rotating IPv6
    // addresses cannot brute-force a code or flood the monitor.
    { operation: 'unlock', limit: 120, window: 'minute', perPathParam: 'source_id', everyone: true },
    // Failures per IP per source, in a short window: behind carrier NAT a neighbour's typos must not lock a
    // paying customer out for long. Brute force across windows and addresses stays bounded by the per-source
    // ceiling above and codes of at least 8 characters.
    { operation: 'unlock', limit: 10, window: '10 minutes', perPathParam: 'source_id', counts: 'failures' },
    { operation: 'report', limit: 120, window: 'minute', perPathParam: 'source_id', everyone: true },
  ],
  envelope: 'feed',
  description: 'Public app feed of a source; also unlocks with a code and takes misuse reports',
  // sources: written once to give a source created before signed links its link secret and feed key.
  data: { read: ['apps', 'devices', 'subscriptions', 'sourceFeeds', 'disabledDevices'], write: ['sources', 'sourceProtection'] },
} as const satisfies RouteDefinition;

export const sourceIconRoute = {
  function: 'source-icon',
  methods: ['GET'],
  path: '/api/rjy/{source_id}/icon.png',
  auth: 'none',
  rateLimit: null,
  envelope: 'feed',
  description: 'The built-in icon of the placeholder app a blocked device sees',
  data: {},
} as const satisfies RouteDefinition;

export const downloadGateRoute = {
  function: 'download-gate',
  methods: ['GET'],
  path: '/api/rjy/{source_id}/apps/{app_id}/download',
  auth: 'none',
  rateLimit: null,
  ipLimits: [{ limit: 600, window: 'minute', perPathParam: 'source_id', alongside: true }],
  envelope: 'feed',
  description: 'Check a signed download link and redirect to the build',
  data: { read: ['sources', 'apps', 'devices', 'sourceProtection', 'subscriptions', 'disabledDevices'] },
} as const satisfies RouteDefinition;

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

export const subscriptionRoute = {
  function: 'subscription',
  methods: ['GET', 'POST'],
  path: '/api/appstore/manage/subscription',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "The caller's subscription, limits, usage and the plans on sale (GET); start the trial or buy a plan from the balance (POST)",
  data: { read: ['plans'], write: ['subscriptions', 'users', 'ledger'] },
} as const satisfies RouteDefinition;

export const sourcesRoute = {
  function: 'sources',
  methods: ['GET', 'POST'],
  path: '/api/appstore/manage/sources',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "List the caller's sources on this site (GET, cursor-paginated) or create one within the plan (POST)",
  data: { write: ['sources', 'subscriptions'] },
} as const satisfies RouteDefinition;

export const sourceDetailRoute = {
  function: 'source-detail',
  methods: ['GET', 'DELETE'],
  path: '/api/appstore/manage/sources/{source_id}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Read every setting of a source (GET) or delete it with its apps, codes, block list and health records (DELETE)',
  data: { write: ['sources', 'subscriptions', 'sourcePurges', 'apps', 'sourceProtection', 'linkHealth'] },
} as const satisfies RouteDefinition;

export const listAppsRoute = {
  function: 'list-apps',
  methods: ['GET'],
  path: '/api/appstore/manage/sources/{source_id}/apps',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "A source's apps, drafts and published, cursor-paginated, optionally by status",
  data: { read: ['sources', 'apps'] },
} as const satisfies RouteDefinition;

export const deleteAppRoute = {
  function: 'delete-app',
  methods: ['DELETE'],
  path: '/api/appstore/manage/sources/{source_id}/apps/{app_id}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Delete a draft (a published app must be unpublished first)',
  data: { read: ['subscriptions'], write: ['sources', 'apps', 'linkHealth'] },
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

export const userBalanceRoute = {
  function: 'user-balance',
  methods: ['GET', 'POST'],
  path: '/api/user/balance',
  auth: 'token',
  rateLimit: 60,
  envelope: 'device',
  description: "The caller's balance and the prices they pay",
  data: { read: ['users', 'prices'] },
} as const satisfies RouteDefinition;

export const userLedgerRoute = {
  function: 'user-ledger',
  methods: ['GET', 'POST'],
  path: '/api/user/ledger',
  auth: 'token',
  rateLimit: 60,
  envelope: 'device',
  description: "The caller's ledger: every change of their balance and use of their codes, newest first",
  data: { read: ['ledger'] },
} as const satisfies RouteDefinition;

export const userWebhookRoute = {
  function: 'user-webhook',
  methods: ['PUT', 'GET', 'DELETE'],
  path: '/api/user/webhook',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "Set (PUT), show (GET) or remove (DELETE) the caller's webhook for events",
  // users: the low-balance threshold lives on the user item.
  data: { write: ['webhooks', 'users'] },
} as const satisfies RouteDefinition;

export const userWebhookTestRoute = {
  function: 'user-webhook-test',
  methods: ['POST'],
  path: '/api/user/webhook/test',
  auth: 'bearer',
  rateLimit: 10,
  envelope: 'management',
  description: "Send a signed ping to the caller's webhook now",
  data: { read: ['webhooks'] },
} as const satisfies RouteDefinition;

export const userEventsRoute = {
  function: 'user-events',
  methods: ['GET', 'POST'],
  path: '/api/user/events',
  auth: 'bearer',
  rateLimit: 120,
  envelope: 'management',
  description: "The caller's events after a cursor, oldest first (kept 30 days)",
  data: { read: ['events'] },
} as const satisfies RouteDefinition;

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
  data: { write: ['udidCapture', 'events'] },
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
  data: { read: ['sources', 'devices'], write: ['sourceProtection', 'udidCapture'] },
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

export const sourceNewsRoute = {
  function: 'source-news',
  methods: ['GET', 'POST'],
  path: '/api/appstore/manage/sources/{source_id}/news',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "List a source's news items (GET) or post one (POST)",
  data: { write: ['sources'] },
} as const satisfies RouteDefinition;

export const newsEntryRoute = {
  function: 'news-entry',
  methods: ['DELETE'],
  path: '/api/appstore/manage/sources/{source_id}/news/{news_id}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: 'Delete a news item of a source',
  data: { write: ['sources'] },
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

/** The customer's page without a source (the tenant's), and what a proven device can do from either page. */
export const customerPageRoute = {
  function: 'customer-page',
  methods: ['GET'],
  path: '/api/customer',
  auth: 'none',
  rateLimit: null,
  ipLimits: [{ limit: 600, window: 'minute' }],
  envelope: 'page',
  description: "The tenant's customer page: get the UDID, then (proven by the Profile Service) the device's certificates, downloads, re-issues and the activation-code form",
  data: { read: ['devices'], write: ['udidCapture'] },
} as const satisfies RouteDefinition;

export const customerDownloadRoute = {
  function: 'customer-download',
  methods: ['GET'],
  path: '/api/customer/download',
  auth: 'none',
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
  auth: 'none',
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
  data: {
    read: ['prices', 'udidCapture'],
    write: ['devices', 'users', 'counters', 'accounts', 'codes', 'reservations', 'addLocks', 'paymentHolds', 'registrations', 'ledger', 'events', 'rateLimits'],
  },
  secrets: true,
} as const satisfies RouteDefinition;

export const routes = [
  publishAppRoute,
  createAppRoute,
  updateAppRoute,
  unpublishAppRoute,
  updateSourceRoute,
  sourceHealthRoute,
  sourceHealthCheckRoute,
  deviceStatusRoute,
  deviceInfoRoute,
  addDeviceRoute,
  addDeviceLegacyInstantRoute,
  addDeviceLegacyReviewRoute,
  sourceFeedRoute,
  sourceIconRoute,
  downloadGateRoute,
  unlockCodesRoute,
  listBlocklistRoute,
  blocklistEntryRoute,
  deviceListRoute,
  userBalanceRoute,
  userLedgerRoute,
  subscriptionRoute,
  sourcesRoute,
  sourceDetailRoute,
  listAppsRoute,
  deleteAppRoute,
  userWebhookRoute,
  userWebhookTestRoute,
  userEventsRoute,
  udidProfileRoute,
  sourceUdidProfileRoute,
  udidCallbackRoute,
  installPageRoute,
  udidCapturesRoute,
  sourceNewsRoute,
  newsEntryRoute,
  deviceUrlRoute,
  customerPageRoute,
  customerDownloadRoute,
  customerActionRoute,
] as const satisfies readonly RouteDefinition[];

export type Route = (typeof routes)[number];
export type FunctionName = Route['function'];

export function routeFor(fn: FunctionName): RouteDefinition {
  const route = routes.find((r) => r.function === fn);
  if (!route) throw new Error(`No route for function ${fn}`);
  return route;
}

/**
 * Functions run on a schedule rather than by a route: the CDK stack adds an EventBridge rule for each, a
 * timeout shorter than the interval, no Lambda retries and a failure queue. The handler wraps its work in
 * `scheduledJob` (shared/jobs/scheduled-job.ts), which holds the job's lease while it runs.
 */
export interface ScheduledJobDefinition {
  function: string;
  /** Minutes between runs when deployed (a whole number, at least 1). */
  everyMinutes: number;
  description: string;
  data: { read?: readonly TableKey[]; write?: readonly TableKey[] };
  secrets?: boolean;
  /** Disk (`/tmp`) the job needs beyond Lambda's default 512 MiB, e.g. to hold a downloaded file. */
  ephemeralStorageMiB?: number;
}

/** Tables every scheduled job's wrapper writes, whatever the job: its lease. */
export const jobTableAccess = { write: ['leases'] } as const satisfies { write: readonly TableKey[] };

export const scheduledJobs = [
  {
    function: 'reservation-worker',
    everyMinutes: 2,
    description: 'Advance review-mode reservations: issue when Apple enables the device, fail and refund otherwise; then the low-balance and subscription-end events',
    // accounts and counters: a stale hold's slot given back, or its registration kept as a failed certificate.
    data: { read: ['accounts', 'tenants'], write: ['reservations', 'devices', 'users', 'codes', 'paymentHolds', 'registrations', 'ledger', 'events', 'subscriptions', 'accounts', 'counters'] },
    secrets: true,
  },
  {
    function: 'revocation-sweep',
    everyMinutes: 60,
    description: "Mark certificates of accounts whose distribution certificate Apple revoked, or whose membership ended",
    data: { read: ['tenants'], write: ['accounts', 'devices', 'events'] },
    secrets: true,
  },
  {
    function: 'link-health-checker',
    everyMinutes: 5,
    description: 'Probe the download links of sources whose link-health alerting is due; send failing and recovery alerts',
    data: { read: ['apps'], write: ['sources', 'linkHealth'] },
  },
  {
    function: 'source-purge',
    everyMinutes: 5,
    description: 'Finish removing the apps, unlock codes, block list and health records of deleted sources',
    data: { write: ['sourcePurges', 'apps', 'sourceProtection', 'linkHealth'] },
  },
  {
    function: 'event-retry',
    everyMinutes: 1,
    description: 'Retry webhook deliveries that are due (the stream consumer makes the first attempts)',
    data: { read: ['webhooks'], write: ['events', 'webhooks'] },
  },
  {
    function: 'ipa-inspector',
    everyMinutes: 5,
    description: 'Read the IPAs too large or too slow to inspect within a request (publish answers ipa_pending meanwhile)',
    data: { write: ['apps', 'ipaInspections'] },
    ephemeralStorageMiB: 5120,
  },
] as const satisfies readonly ScheduledJobDefinition[];

/**
 * A function a table's DynamoDB stream triggers (an event source mapping). The stack sets batch failure
 * reporting, bisection on error, bounded retries and an on-failure queue; the handler reports only the records
 * that failed (Powertools batch).
 */
export interface StreamConsumerDefinition {
  function: string;
  /** The table whose stream (see its `stream` in shared/db/tables.ts) triggers the function. */
  table: TableKey;
  description: string;
  batchSize: number;
  /** Attempts after the first for a failing batch before it goes to the failure queue. */
  retryAttempts: number;
  data: { read?: readonly TableKey[]; write?: readonly TableKey[] };
}

export const streamConsumers = [
  {
    function: 'event-dispatcher',
    table: 'events',
    description: 'Deliver each new event to its user’s webhook (signed, at least once)',
    batchSize: 10,
    retryAttempts: 3,
    data: { read: ['webhooks'], write: ['events', 'webhooks'] },
  },
] as const satisfies readonly StreamConsumerDefinition[];

/**
 * A function API Gateway runs in front of the routes: a REQUEST authorizer whose answer API Gateway caches by
 * the identity headers. The stack makes every route method use it and require the API key it returns.
 */
export interface AuthorizerDefinition {
  function: string;
  description: string;
  /** Request headers API Gateway keys the cached answer by (and refuses requests without). */
  identityHeaders: readonly string[];
  /** How long API Gateway reuses an answer for the same identity headers (at most 3600). */
  cacheSeconds: number;
  data: { read?: readonly TableKey[]; write?: readonly TableKey[] };
}

/**
 * Supplies the usage plan's API key for a request: the key of the tenant that owns the `Host` (any other host
 * gets the default tenant's). The answer depends on the host alone, so it is cached per host for an hour and
 * the authorizer runs about once per host per hour, not per request. It authenticates nobody: the functions do.
 */
export const apiKeyAuthorizer = {
  function: 'tenant-api-key',
  description: "Supplies the Host's tenant API key to the usage plan",
  identityHeaders: ['Host'],
  cacheSeconds: 3600,
  data: { read: ['tenants', 'tenantHosts'] },
} as const satisfies AuthorizerDefinition;

export const authorizers = [apiKeyAuthorizer] as const satisfies readonly AuthorizerDefinition[];
