import { AppleApiError, appleErrorFromResponse } from './asc-errors';
import type { AscCredentials, AscTokenCache } from './asc-jwt';
import { appleError } from '../observability/metrics';

/** Apple's hourly request budget for the API key, from the `X-Rate-Limit` header. */
export interface AscRateLimit {
  limit: number;
  remaining: number;
}

/** Parses `user-hour-lim:3600;user-hour-rem:3599;`; anything else yields undefined. */
export function parseRateLimit(header: string | null): AscRateLimit | undefined {
  if (!header) return undefined;
  const fields = new Map(
    header
      .split(';')
      .map((part) => part.split(':').map((s) => s.trim()))
      .filter((pair): pair is [string, string] => pair.length === 2),
  );
  const limit = fields.get('user-hour-lim');
  const remaining = fields.get('user-hour-rem');
  if (!limit || !remaining || !/^\d+$/.test(limit) || !/^\d+$/.test(remaining)) return undefined;
  return { limit: Number(limit), remaining: Number(remaining) };
}

export interface AscTransportOptions {
  fetch?: typeof fetch;
  /** Per attempt, headers and body included. */
  timeoutMs?: number;
  /** Total attempts for a retryable failure (429, 5xx, network error, timeout). */
  maxAttempts?: number;
  /** First backoff; doubles per attempt, with jitter. */
  retryBaseDelayMs?: number;
}

export type Query = Record<string, string | number>;

export interface AscRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
  /**
   * False for a request that must not be sent twice blindly (registering a device): only a 429, which Apple
   * answered without acting, is retried; a lost answer goes back to the caller, who looks up what happened.
   */
  repeatable?: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Worth another try: Apple was busy or unreachable. Every other 4xx would only fail the same way again. */
function isRetryable(error: AppleApiError): boolean {
  return error.kind === 'unavailable' || error.kind === 'rate_limited';
}

type Outcome = { ok: true; body: unknown } | { ok: false; error: AppleApiError };

/** HTTP to App Store Connect: bearer token, JSON, typed errors, bounded retries, the last rate-limit budget seen. */
export class AscTransport {
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #maxAttempts: number;
  readonly #retryBaseDelayMs: number;
  #rateLimit: AscRateLimit | undefined;

  constructor(
    private readonly credentials: AscCredentials,
    private readonly tokens: AscTokenCache,
    options: AscTransportOptions = {},
  ) {
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.#retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
  }

  get rateLimit(): AscRateLimit | undefined {
    return this.#rateLimit;
  }

  async request(request: AscRequest): Promise<unknown> {
    const url = this.#url(request);
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(request, url);
      if (outcome.ok) return outcome.body;
      const retry = request.repeatable === false ? outcome.error.kind === 'rate_limited' : isRetryable(outcome.error);
      if (attempt >= this.#maxAttempts || !retry) {
        appleError(outcome.error.kind);
        throw outcome.error;
      }
      await sleep(this.#backoff(attempt));
    }
  }

  #url({ path, query }: AscRequest): string {
    const base = this.credentials.baseUrl.endsWith('/') ? this.credentials.baseUrl : `${this.credentials.baseUrl}/`;
    const url = new URL(path.replace(/^\//, ''), base);
    for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, String(value));
    return url.toString();
  }

  async #attempt(request: AscRequest, url: string): Promise<Outcome> {
    let token: string;
    try {
      token = await this.tokens.token(this.credentials);
    } catch (cause) {
      return { ok: false, error: new AppleApiError('unauthorized', 'The API key cannot sign a token', { cause }) };
    }
    let status: number;
    let text: string;
    try {
      const response = await this.#fetch(url, {
        method: request.method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      this.#rateLimit = parseRateLimit(response.headers.get('x-rate-limit')) ?? this.#rateLimit;
      status = response.status;
      text = await response.text();
    } catch (cause) {
      const message = `${request.method} ${request.path} got no response: ${String(cause)}`;
      return { ok: false, error: new AppleApiError('unavailable', message, { cause }) };
    }

    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Gateways in front of Apple answer outages with HTML; the status still tells what happened.
      body = undefined;
    }
    if (status >= 200 && status < 300) {
      if (body !== undefined || text === '') return { ok: true, body };
      const message = `${request.method} ${request.path}: HTTP ${status} with a body that is not JSON`;
      return { ok: false, error: new AppleApiError('unexpected', message, { status }) };
    }
    if (status === 401) this.tokens.invalidate(this.credentials);
    return { ok: false, error: appleErrorFromResponse(status, body) };
  }

  /** Exponential with jitter, so clients that failed together do not retry together. */
  #backoff(attempt: number): number {
    const ceiling = this.#retryBaseDelayMs * 2 ** (attempt - 1);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}
