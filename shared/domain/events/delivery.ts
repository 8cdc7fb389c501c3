/**
 * One delivery attempt: a signed JSON POST through the SSRF-safe fetch, a few seconds at most, no redirect
 * followed (a webhook that redirects is misconfigured: the body is not re-sent elsewhere). Success is a 2xx.
 */
import { FetchRefusedError, safeFetch, type SafeFetchOptions } from '../../fetch/safe-fetch';
import { EVENT_SIGNATURE_HEADER, signEvent } from './signature';

export const DELIVERY_TIMEOUT_MS = 5_000;

export interface DeliveryResult {
  ok: boolean;
  /** HTTP status; 0 when no answer came. */
  status: number;
  /** Why it failed (`http_status`, `redirect`, or the fetch's refusal: `timeout`, `dns`, `refused`, `address`, `tls`, `scheme`); null on success. */
  error: string | null;
}

/** Test hooks of the fetch (a resolver, a connect address); never set in production. */
export type DeliveryFetchOptions = Pick<SafeFetchOptions, 'resolve' | 'allowPrivate' | 'connectAddress'>;

export interface OutgoingEvent {
  id: string;
  type: string;
  created: number;
  [key: string]: unknown;
}

export async function deliver(url: string, secret: string, body: OutgoingEvent, at: number, fetchOptions: DeliveryFetchOptions = {}): Promise<DeliveryResult> {
  const raw = JSON.stringify(body);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'appsource-events/1',
    'X-Event-Id': body.id,
    'X-Event-Type': body.type,
    [EVENT_SIGNATURE_HEADER]: signEvent(raw, secret, at),
  };
  try {
    const res = await safeFetch(url, { ...fetchOptions, method: 'POST', headers, body: raw, timeoutMs: DELIVERY_TIMEOUT_MS, maxRedirects: 0, maxBodyBytes: 1024 });
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, error: null };
    return { ok: false, status: res.status, error: res.status >= 300 && res.status < 400 ? 'redirect' : 'http_status' };
  } catch (error) {
    if (error instanceof FetchRefusedError) return { ok: false, status: 0, error: error.reason };
    throw error;
  }
}
