/**
 * The one way the service fetches a URL a user gave it (download-link probes, the publish size lookup,
 * webhook deliveries). Rules:
 * - http and https only;
 * - unless private addresses are allowed (`FETCH_ALLOW_PRIVATE=1`, set only by the local runtime and the
 *   tests), every address the host resolves to must be public (see address-policy.ts); the check runs
 *   after DNS resolution and again for every redirect target;
 * - the connection goes to the address that was checked: the resolved address is pinned through the
 *   socket's `lookup`, so a second DNS answer (rebinding) cannot swap in another address;
 * - redirects are followed by hand, at most `maxRedirects` (default 3);
 * - `timeoutMs` bounds the whole fetch: resolution, every hop, and reading the body.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupAddress } from 'node:dns';
import { ipLiteral, isPublicAddress } from './address-policy';
import { privateAddressesAllowed } from './allow-private';
import { ServiceError } from '../service-error';

export { privateAddressesAllowed };

export interface SafeFetchOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxRedirects?: number;
  resolve?: (host: string) => Promise<string[]>;
  allowPrivate?: boolean;
  /** Bytes of the body kept (the rest is not read; the connection is closed). Default 64 KiB. */
  maxBodyBytes?: number;
  /**
   * Tests only: where the socket goes for an address that passed the check. Lets a test give a name a public
   * address (so the rule is exercised) while the bytes still go to a loopback server.
   */
  connectAddress?: (checkedAddress: string) => string;
  /**
   * Streams the final answer's body here instead of keeping its first bytes (`body` is then absent); the
   * fetch's deadline still covers it, and the connection is destroyed when it runs out. For downloads that
   * must never sit whole in memory (the IPA inspection).
   */
  bodySink?: (body: IncomingMessage, status: number, headers: Headers) => Promise<void>;
}

export interface SafeFetchResult {
  status: number;
  headers: Headers;
  finalUrl: string;
  body?: string;
}

export type FetchRefusedReason = 'scheme' | 'address' | 'dns' | 'timeout' | 'redirects' | 'refused' | 'tls';

/** The fetch did not get an HTTP answer, or was not allowed to try; `reason` says which. */
export class FetchRefusedError extends ServiceError<'fetch_refused', FetchRefusedReason> {
  override readonly name = 'FetchRefusedError';

  constructor(reason: FetchRefusedReason, message: string, options?: { cause?: unknown }) {
    super('fetch_refused', reason, message, options);
  }
}

/** Carries an error thrown by a `bodySink` past the classification of connection failures. */
class SinkFailure extends ServiceError<'fetch_sink', 'sink_failed'> {
  override readonly name = 'SinkFailure';

  constructor(readonly inner: unknown) {
    super('fetch_sink', 'sink_failed', 'body sink failed');
  }
}

export const DEFAULT_MAX_REDIRECTS = 3;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

async function systemResolve(host: string): Promise<string[]> {
  return (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

function isTlsError(code: string): boolean {
  return /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/.test(code);
}

function classify(error: unknown): FetchRefusedError {
  if (error instanceof FetchRefusedError) return error;
  const code = (error as { code?: unknown }).code;
  const text = typeof code === 'string' ? code : '';
  // OpenSSL's own failures (a server that does not speak TLS, say) arrive as EPROTO.
  if (isTlsError(text) || text === 'EPROTO') return new FetchRefusedError('tls', `TLS failure (${text})`, { cause: error });
  if (text === 'ENOTFOUND' || text === 'EAI_AGAIN' || text === 'ENODATA') return new FetchRefusedError('dns', `Name not resolved (${text})`, { cause: error });
  return new FetchRefusedError('refused', `Connection failed${text ? ` (${text})` : ''}`, { cause: error });
}

/** The addresses of `url`'s host that may be contacted, or a refusal. */
async function checkedAddress(url: URL, resolve: (host: string) => Promise<string[]>, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefusedError('scheme', `Scheme ${url.protocol} is not fetched`);
  const literal = ipLiteral(url.hostname);
  let addresses: string[];
  if (literal) {
    addresses = [literal];
  } else {
    try {
      addresses = await resolve(url.hostname);
    } catch (error) {
      throw new FetchRefusedError('dns', `Name ${url.hostname} not resolved`, { cause: error });
    }
  }
  if (addresses.length === 0) throw new FetchRefusedError('dns', `Name ${url.hostname} has no address`);
  // One non-public answer refuses the name: a host that mixes them is not one a user may point us at.
  if (!allowPrivate && !addresses.every(isPublicAddress)) throw new FetchRefusedError('address', `Host ${url.hostname} resolves to a non-public address`);
  return pinFor(addresses[0]!);
}

function pinFor(address: string): { address: string; family: 4 | 6 } {
  return { address, family: address.includes(':') ? 6 : 4 };
}

/** A `lookup` that answers only the checked address, in whichever shape the socket asks for. */
function pinnedLookup(address: string, family: 4 | 6): RequestOptions['lookup'] {
  return ((_host: string, options: { all?: boolean }, callback: (err: Error | null, addr: string | LookupAddress[], fam?: number) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as RequestOptions['lookup'];
}

interface Hop {
  response: IncomingMessage;
  request: ClientRequest;
}

function send(url: URL, pinned: { address: string; family: 4 | 6 }, method: string, headers: Record<string, string>, body: string | undefined, track: (req: ClientRequest) => void): Promise<Hop> {
  return new Promise((resolvePromise, reject) => {
    const requestFn = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = requestFn(
      url,
      {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) },
        lookup: pinnedLookup(pinned.address, pinned.family),
        agent: false,
      },
      (response) => resolvePromise({ response, request: req }),
    );
    track(req);
    req.on('error', (error) => reject(classify(error)));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function readBody(response: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolvePromise(Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'));
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      // Enough kept: a download host that ignores `Range` must not make us read the whole file.
      if (size >= maxBytes) {
        finish();
        response.destroy();
      }
    });
    response.on('end', finish);
    response.on('error', (error) => (done ? undefined : reject(classify(error))));
    response.on('close', finish);
  });
}

function toHeaders(response: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** Fetches `url` under the rules above; a FetchRefusedError when no HTTP answer could (or may) be had. */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const resolve = options.resolve ?? systemResolve;
  const allowPrivate = options.allowPrivate ?? privateAddressesAllowed();
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  let current: ClientRequest | undefined;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new FetchRefusedError('timeout', `No complete answer within ${options.timeoutMs} ms`);
      current?.destroy(error);
      reject(error);
    }, options.timeoutMs);
  });
  // Whichever of the fetch and the timer loses must not surface as an unhandled rejection.
  timedOut.catch(() => undefined);

  const run = async (): Promise<SafeFetchResult> => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      throw new FetchRefusedError('scheme', 'Not an absolute URL', { cause: error });
    }
    let method: string = options.method ?? 'GET';
    let body = options.body;
    let headers = { ...options.headers };
    for (let hop = 0; ; hop++) {
      const checked = await Promise.race([checkedAddress(target, resolve, allowPrivate), timedOut]);
      const pinned = options.connectAddress ? pinFor(options.connectAddress(checked.address)) : checked;
      const { response } = await Promise.race([send(target, pinned, method, headers, body, (req) => (current = req)), timedOut]);
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.statusCode ?? 0) || !location) {
        if (options.bodySink && method !== 'HEAD') {
          try {
            await Promise.race([options.bodySink(response, response.statusCode ?? 0, toHeaders(response)), timedOut]);
          } catch (error) {
            if (error instanceof FetchRefusedError) throw error;
            throw new SinkFailure(error);
          }
          return { status: response.statusCode ?? 0, headers: toHeaders(response), finalUrl: target.toString() };
        }
        const text = method === 'HEAD' ? undefined : await Promise.race([readBody(response, maxBodyBytes), timedOut]);
        return { status: response.statusCode ?? 0, headers: toHeaders(response), finalUrl: target.toString(), ...(text === undefined ? {} : { body: text }) };
      }
      response.destroy();
      if (hop >= maxRedirects) throw new FetchRefusedError('redirects', `More than ${maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(location, target);
      } catch (error) {
        throw new FetchRefusedError('redirects', 'Redirect to an unparseable location', { cause: error });
      }
      // 303 always, and 301/302 for POST, turn into a body-less GET (what browsers do); 307/308 keep both.
      const status = response.statusCode ?? 0;
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-/i.test(k)));
      }
      // Credentials meant for one host are not handed to another.
      if (next.host !== target.host) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^(authorization|cookie|x-signature)$/i.test(k)));
      target = next;
    }
  };

  try {
    return await Promise.race([run(), timedOut]);
  } catch (error) {
    // What the caller's sink refused is the caller's to interpret, not a connection failure.
    if (error instanceof SinkFailure) throw error.inner;
    throw classify(error);
  } finally {
    clearTimeout(timer);
    current?.destroy();
  }
}
