import { FetchRefusedError, safeFetch, type SafeFetchOptions } from '../../fetch/safe-fetch';
import type { ProbeError, ProbeOutcome } from '../../records/link-health';
import { validatorsOf } from '../../records/ipa-inspection';

export interface ProbeOptions {
  timeoutMs: number;
  maxRedirects?: number;
  /** Passed through to the fetch rules (tests inject a resolver or lift the address rule). */
  fetch?: Pick<SafeFetchOptions, 'resolve' | 'allowPrivate' | 'connectAddress'>;
}

const healthy = (status: number) => status >= 200 && status < 300;

function probeError(error: unknown): ProbeError {
  if (!(error instanceof FetchRefusedError)) return 'refused';
  switch (error.reason) {
    case 'timeout':
    case 'dns':
    case 'tls':
    case 'redirects':
      return error.reason;
    default:
      // A refused scheme or address is, to the owner, a host we cannot reach.
      return 'refused';
  }
}

/**
 * Probes a download URL: `HEAD`, and when that answers but not with a 2xx (many hosts refuse HEAD), a `GET`
 * of the first byte. Healthy means a 2xx (206 included). One deadline covers both requests.
 */
export async function probeLink(url: string, options: ProbeOptions): Promise<ProbeOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  const base = { maxRedirects: options.maxRedirects, ...options.fetch, headers: { 'User-Agent': 'appsource-link-health/1' } };
  let status = 0;
  try {
    const head = await safeFetch(url, { ...base, method: 'HEAD', timeoutMs: options.timeoutMs });
    if (healthy(head.status)) return { healthy: true, status: head.status, file: validatorsOf(head.headers) };
    status = head.status;
    const left = deadline - Date.now();
    if (left <= 0) return { healthy: false, status, error: 'timeout' };
    const get = await safeFetch(url, { ...base, method: 'GET', headers: { ...base.headers, Range: 'bytes=0-0' }, timeoutMs: left, maxBodyBytes: 1 });
    if (healthy(get.status)) {
      // A ranged answer's length is the total in `Content-Range: bytes 0-0/<total>`.
      const total = /\/(\d{1,15})\s*$/.exec(get.headers.get('content-range') ?? '')?.[1];
      const file = validatorsOf(get.headers);
      return { healthy: true, status: get.status, file: { ...file, length: total !== undefined ? Number(total) : get.status === 206 ? undefined : file.length } };
    }
    return { healthy: false, status: get.status, error: 'http_status' };
  } catch (error) {
    return { healthy: false, status, error: probeError(error) };
  }
}
