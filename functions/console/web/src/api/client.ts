/**
 * The one way a screen reaches the API: `openapi-fetch` typed by `schema.d.ts`, which the build generates from
 * the product's own OpenAPI document (infra/tooling/console-build.ts). A route or parameter the API does not
 * have does not compile. Every call sends the UI language (`X-Lang`, so every error comes back as the API's
 * localized message) and, on a write, the session's CSRF token; the session itself is the HttpOnly cookie.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { currentLang } from '../i18n';

export type { paths };

let csrfToken = '';
const sessionEndListeners = new Set<(error: ApiError) => void>();

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Told when the API answers that the session is over (expired, signed out elsewhere, revoked). */
export function onSessionEnd(listener: (error: ApiError) => void): () => void {
  sessionEndListeners.add(listener);
  return () => void sessionEndListeners.delete(listener);
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const headers: Middleware = {
  onRequest({ request }) {
    request.headers.set('X-Lang', currentLang());
    if (WRITES.has(request.method) && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
};

/**
 * The device and add routes declare the API token as a required parameter (query or body); the console is
 * signed in by its session cookie instead, which those routes accept in its place. The client's types are
 * the document's with `token` optional, and nothing else changed.
 */
type OptionalToken<T> = T extends { token: unknown } ? Omit<T, 'token'> & { token?: string } : T;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** A query whose keys are all optional once the token is may be left out altogether. */
type QueryPart<Q> = [RequiredKeys<Q>] extends [never] ? { query?: Q } : { query: Q };
type SessionParameters<P> = Omit<P, 'query'> & (P extends { query: infer Q } ? QueryPart<OptionalToken<Q>> : P extends { query?: infer Q } ? { query?: Q } : object);
type SessionBody<B> = { [C in keyof B]: C extends 'content' ? { [M in keyof B[C]]: OptionalToken<B[C][M]> } : B[C] };
type SessionOperation<O> = {
  [K in keyof O]: K extends 'parameters'
    ? SessionParameters<O[K]>
    : K extends 'requestBody'
      ? SessionBody<NonNullable<O[K]>>
      : O[K];
};
export type SessionPaths = { [Path in keyof paths]: { [Method in keyof paths[Path]]: SessionOperation<paths[Path][Method]> } };

export const api = createClient<SessionPaths>({ baseUrl: '', credentials: 'same-origin' });
api.use(headers);

/** A refusal as the API words it: `msg` localized, `error` its stable reason, `fields` what caused it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly error: string,
    readonly fields: string[],
    readonly data: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The message for one input field, when the refusal names it. */
  forField(field: string): string | undefined {
    return this.fields.includes(field) ? this.message : undefined;
  }
}

/** No answer at all (offline, the server down): said in the UI's words, not the API's. */
export class NetworkError extends Error {}

interface Envelope {
  code: number;
  msg: string;
  data?: unknown;
}

/** The `data` of a success answer: in a route's 200 union, the member whose `code` is any number (1). */
export type OkData<T> = T extends { code: infer C; data: infer D } ? (number extends C ? D : never) : never;

/** The success `data` of a route's method, from the document's 200 answer. */
export type Answer<P extends keyof SessionPaths, M extends keyof SessionPaths[P]> = SessionPaths[P][M] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? OkData<B> : never;

const SESSION_OVER = new Set(['session_expired', 'session_required', 'token_invalid', 'token_expired', 'token_missing']);

/** Answers the success `data` of a call, or throws the refusal as an ApiError (every `code` but 1). */
export async function call<R extends { data?: unknown; error?: unknown; response: Response }>(request: Promise<R>): Promise<OkData<NonNullable<R['data']>>> {
  let result: R;
  try {
    result = await request;
  } catch (cause) {
    throw new NetworkError(String(cause));
  }
  const body = (result.data ?? result.error) as Envelope | undefined;
  if (body && typeof body === 'object' && body.code === 1) return body.data as OkData<NonNullable<R['data']>>;
  const data = (body && typeof body === 'object' && body.data && typeof body.data === 'object' ? body.data : {}) as Record<string, unknown>;
  const error = new ApiError(
    result.response.status,
    body?.code ?? result.response.status,
    body?.msg ?? result.response.statusText,
    typeof data.error === 'string' ? data.error : '',
    Array.isArray(data.fields) ? (data.fields as string[]) : [],
    data,
  );
  if ((result.response.status === 401 || error.code === 10 || error.code === 11 || error.code === 12) && SESSION_OVER.has(error.error)) {
    for (const listener of sessionEndListeners) listener(error);
  }
  throw error;
}
