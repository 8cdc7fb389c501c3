/**
 * Fetches URLs that users supply (download links, webhooks) without letting them reach the service's own
 * network: http(s) only, and — unless private addresses are explicitly allowed (`allowPrivate`, or
 * `FETCH_ALLOW_PRIVATE=1` locally) — only hosts that resolve to public addresses, checked after DNS
 * resolution and again on every redirect, which is followed by hand.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface SafeFetchOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Budget for the whole exchange, redirects included. */
  timeoutMs: number;
  maxRedirects?: number;
  resolve?: (host: string) => Promise<string[]>;
  allowPrivate?: boolean;
}

export interface SafeFetchResult {
  status: number;
  headers: Headers;
  finalUrl: string;
  body?: string;
}

export type FetchRefusal = 'scheme' | 'address' | 'dns' | 'timeout' | 'redirects' | 'refused' | 'tls';

export class FetchRefusedError extends Error {
  readonly reason: FetchRefusal;

  constructor(reason: FetchRefusal, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FetchRefusedError';
    this.reason = reason;
  }
}

const DEFAULT_MAX_REDIRECTS = 3;

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

function ipv4Private(address: string): boolean {
  const [a = 0, b = 0] = address.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** Loopback, private, link-local (the metadata service included), unspecified, multicast: not public. */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) return ipv4Private(address);
  const v6 = address.toLowerCase().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return ipv4Private(mapped[1]!);
  return v6 === '::' || v6 === '::1' || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || v6.startsWith('ff');
}

function allowPrivateByEnv(): boolean {
  return process.env.FETCH_ALLOW_PRIVATE === '1';
}

async function checkTarget(url: URL, options: SafeFetchOptions): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefusedError('scheme', `scheme ${url.protocol} is not allowed`);
  if (options.allowPrivate ?? allowPrivateByEnv()) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch (cause) {
      throw new FetchRefusedError('dns', `cannot resolve ${host}`, { cause });
    }
  }
  if (addresses.length === 0) throw new FetchRefusedError('dns', `no address for ${host}`);
  if (addresses.some(isPrivateAddress)) throw new FetchRefusedError('address', `${host} is not a public address`);
}

function classify(err: unknown, signal: AbortSignal): FetchRefusedError {
  if (err instanceof FetchRefusedError) return err;
  if (signal.aborted) return new FetchRefusedError('timeout', 'timed out', { cause: err });
  const code = String((err as { cause?: { code?: string } })?.cause?.code ?? '');
  if (/CERT|SSL|TLS/i.test(code)) return new FetchRefusedError('tls', 'TLS failure', { cause: err });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new FetchRefusedError('dns', 'cannot resolve host', { cause: err });
  return new FetchRefusedError('refused', 'connection failed', { cause: err });
}

export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new FetchRefusedError('scheme', 'not an absolute URL');
  }
  let method = options.method ?? 'GET';
  let body = options.body;
  try {
    for (let redirects = 0; ; redirects++) {
      await checkTarget(current, options);
      const res = await fetch(current, { method, headers: options.headers, body, redirect: 'manual', signal });
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        if (redirects >= maxRedirects) throw new FetchRefusedError('redirects', `more than ${maxRedirects} redirects`);
        current = new URL(location, current);
        // As browsers do: a 303, or a 301/302 after a POST, continues as a GET without a body.
        if (res.status === 303 || (method === 'POST' && (res.status === 301 || res.status === 302))) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const text = method === 'HEAD' ? undefined : await res.text();
      return { status: res.status, headers: res.headers, finalUrl: current.href, ...(text === undefined ? {} : { body: text }) };
    }
  } catch (err) {
    throw classify(err, signal);
  }
}
