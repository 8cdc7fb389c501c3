/**
 * What an entry of the route table is: a route, a scheduled job, a stream consumer, an authorizer; and the
 * table lists several entries share, named once.
 */
import type { TableKey } from '../db/tables';
import type { WindowKind } from '../limit-windows';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * bearer: `Authorization: Bearer <token>`; token: a `token` parameter in query or body; session: the customer's
 * session cookie (a device proven through the Profile Service), refused without one; none: public.
 */
export type AuthKind = 'bearer' | 'token' | 'session' | 'none';

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
  /**
   * The route also serves every path below `path` (API Gateway's greedy `{proxy+}` resource under it, the
   * rest of the path as the path parameter `proxy`): a web app's files under one function.
   */
  subpaths?: true;
  /**
   * A folder of files the function serves, relative to its folder (`functions/<function>/`): built before the
   * stack is synthesized and copied next to the function's bundle, at the same relative place.
   */
  files?: string;
  auth: AuthKind;
  /** Requests per minute per token owner; null where the route is public. */
  rateLimit: number | null;
  /**
   * Routes that share one budget name the same group (the three add routes are one endpoint for limiting:
   * a user gets 60 adds a minute in all, not 60 on each). Without it, the route's function is its group.
   */
  rateLimitGroup?: string;
  /**
   * The per-user limit is counted while the business code reads, instead of before it, which saves the request
   * one DynamoDB round trip of latency. The business code runs behind the write gate (shared/db/write-gate.ts):
   * the shared document client sends none of its writes before the count is in, and fails them with the
   * refusal; the answer waits for the count too, so a refused request answers 429, has read at most what it
   * would have read, and has changed nothing. Only for routes whose every other side effect (a call to Apple,
   * to an app's origin) follows a DynamoDB write or awaits `untilCounted()`.
   */
  limitAlongside?: true;
  /**
   * The per-user count rides in the route's own `TransactWriteItems` (its first one), as a conditional update of
   * the counter: the count and the write are one round trip, written together or not at all, so a refused
   * request changes nothing, not even the counter. A request that ends without that transaction (an error, a
   * read) is counted on its own before it is answered, and any other write waits for that count (the write
   * gate, as for `limitAlongside`). For routes whose one write is a transaction (device status, update source).
   */
  countInTransaction?: true;
  /**
   * The route changes things on a GET as well (the device contract's add and status, which scripts call as GET
   * links): a request made with a console session must then carry its CSRF token whatever its method, since
   * SameSite=Strict does not stop a page of a sibling subdomain (the same site) from making a browser follow a
   * link.
   */
  writesOnGet?: true;
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
 * authenticate one, and there also a console session instead (read, and its idle end moved forward), the
 * customer's session (held with the captures) on session routes, the counters on limited routes.
 */
export const chainTableAccess = {
  tenant: ['tenants', 'tenantHosts'],
  token: ['tokens'],
  consoleSession: ['consoleAuth'],
  session: ['udidCapture'],
  write: ['rateLimits'],
} as const satisfies {
  tenant: readonly TableKey[];
  token: readonly TableKey[];
  consoleSession: readonly TableKey[];
  session: readonly TableKey[];
  write: readonly TableKey[];
};

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
 * What an add reads and writes wherever it runs: the three add routes and a customer's redeem or re-issue
 * (the payment, its hold and ledger entry, the slot and registration, the certificate, the lock, the event).
 */
export const ADD_TABLES = {
  read: ['prices', 'udidCapture'],
  write: ['devices', 'users', 'counters', 'accounts', 'codes', 'reservations', 'addLocks', 'paymentHolds', 'registrations', 'ledger', 'events'],
} as const satisfies { read: readonly TableKey[]; write: readonly TableKey[] };

/**
 * `ADD_TABLES` with a route's own tables after them. Called with a pure mark, so a bundle that does not use the
 * entry drops it with its lists (a function carries only its own entry of the route table).
 */
export function addTablesAnd<R extends TableKey = never, W extends TableKey = never>(own: { read?: readonly R[]; write?: readonly W[] }) {
  return { read: [...ADD_TABLES.read, ...(own.read ?? [])], write: [...ADD_TABLES.write, ...(own.write ?? [])] };
}
