import type { CountCarrier } from '../db/write-gate';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { ProvenDevice } from '../domain/self-service/proof';
import type { Lang } from '../i18n/languages';
import type { MessageKey, MessageParams } from '../i18n/localize';
import type { EnvelopeKind, RouteDefinition } from '../routes/definitions';
import type { Actor } from '../records/source';
import type { Tenant } from '../records/tenant';
import type { TokenOwner } from '../records/user';

export type Params = Record<string, unknown>;

/** What the middleware chain learns about a request, handed to the function's business code. */
export interface RequestState {
  route: RouteDefinition;
  /** Which of the route's operations this request is (routes that serve several); undefined otherwise. */
  operation: string | undefined;
  /** The envelope answers use: the operation's, else the route's. */
  envelope: EnvelopeKind;
  /** Caller's source IP as API Gateway reports it. */
  ip: string;
  /** Request time, epoch milliseconds. */
  now: number;
  lang: Lang;
  tenant: Tenant;
  /** Query string merged with the parsed body (body wins). */
  params: Params;
  pathParams: Record<string, string>;
  /** The authenticated token owner once token auth has run (routes with auth other than none). */
  user: TokenOwner | undefined;
  /** The device the customer's session proves, once session auth has run (routes whose auth is `session`). */
  device?: ProvenDevice;
  /**
   * Items read in the same round trip as the token (`readWithToken` of `createHandler`), by name; null where
   * absent. Whoever's they are: the business code checks they are the caller's.
   */
  readWithToken?: Record<string, Record<string, unknown> | null>;
  /**
   * On a `limitAlongside` route, once its count is in flight: resolves when the request may change something,
   * throws its refusal (the chain holds the business code's writes on it, shared/db/write-gate.ts).
   */
  counted?: () => Promise<void>;
  /** On a `countInTransaction` route: the count the request's first transaction carries (shared/db/write-gate.ts). */
  countCarrier?: CountCarrier;
  /** Headers the chain adds to every response (rate-limit counters, …). */
  responseHeaders: Record<string, string>;
  /** The event as API Gateway sent it (headers, multi-value query), for the few functions that read more. */
  event: ApiEvent;
}

/** What the business code of a route whose auth is not `none` receives: token auth ran, so the caller is known. */
export interface AuthenticatedState extends RequestState {
  user: TokenOwner;
  /** The token owner acting on the tenant of the request's host. */
  actor: Actor;
}

/** What the business code of a route whose auth is `session` receives: the customer's proven device. */
export interface SessionState extends RequestState {
  device: ProvenDevice;
}

export interface AppContext extends Context {
  app: RequestState;
}

export type ApiEvent = APIGatewayProxyEvent;
export type ApiResult = APIGatewayProxyResult;

/** What a management or device function returns on success: the envelope's `data`. */
export interface SuccessResult {
  data: Record<string, unknown>;
  /** The success `msg`, when it says more than "success". */
  message?: { key: MessageKey; params?: MessageParams };
  /** 202 when the work was accepted and goes on in the background (the body is the same `code 1` envelope). */
  statusCode?: 200 | 202;
}

/** What the feed function returns: a body served as-is. */
export interface RawResult {
  raw: unknown;
  statusCode?: number;
  /** Headers of this answer, over the chain's defaults (caching, redirects, content type). */
  headers?: Record<string, string>;
  /** A body served as this exact text instead of `raw` as JSON (a JWE, an empty 304 or 302). */
  text?: string;
  /** `text` is base64 of a binary body (an image); API Gateway decodes it for the client. */
  base64?: boolean;
}

export type BusinessResult = SuccessResult | RawResult;
