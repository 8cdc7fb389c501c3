/**
 * Alert deliveries: a JSON POST to the owner's webhook, signed with HMAC-SHA256 over the exact bytes sent
 * when the configuration has a secret, retried a bounded number of times, every failure logged.
 */
import { createHmac } from 'node:crypto';
import { safeFetch, type SafeFetchOptions } from '../../fetch/safe-fetch';
import { logger } from '../../logger';

export interface AlertBody {
  event: 'link_failing' | 'link_recovered';
  source_id: string;
  app_id: number;
  name: string;
  version: string;
  url: string;
  /** HTTP status of the last probe; 0 when none came. */
  status: number;
  /** Why the last probe failed; null on recovery. */
  error: string | null;
  /** Consecutive failed probes (0 on recovery). */
  failures: number;
  checked_at: number;
}

export const SIGNATURE_HEADER = 'X-Signature';

export function signatureFor(rawBody: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}

export interface DeliveryOptions {
  /** Attempts in all (first try included). */
  attempts: number;
  attemptTimeoutMs: number;
  /** Pause before the 2nd, 3rd… attempt; the last value repeats. */
  backoffMs: readonly number[];
  /** No attempt starts that could end after this (epoch ms). */
  deadline?: number;
  fetch?: Pick<SafeFetchOptions, 'resolve' | 'allowPrivate' | 'connectAddress'>;
}

export const DEFAULT_DELIVERY: DeliveryOptions = { attempts: 3, attemptTimeoutMs: 5_000, backoffMs: [1_000, 3_000] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Delivers one alert; true when the receiver answered 2xx. Never throws: a lost alert is logged, not fatal. */
export async function deliverAlert(webhookUrl: string, secret: string | undefined, alert: AlertBody, options: DeliveryOptions = DEFAULT_DELIVERY): Promise<boolean> {
  const raw = JSON.stringify(alert);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': 'appsource-link-health/1', 'X-Event': alert.event };
  if (secret) headers[SIGNATURE_HEADER] = signatureFor(raw, secret);
  const context = { event: alert.event, sourceId: alert.source_id, appId: alert.app_id };
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    if (attempt > 1) await sleep(options.backoffMs[Math.min(attempt - 2, options.backoffMs.length - 1)] ?? 0);
    const left = options.deadline === undefined ? options.attemptTimeoutMs : Math.min(options.attemptTimeoutMs, options.deadline - Date.now());
    if (left <= 0) break;
    try {
      // A webhook that redirects is misconfigured: the body is not re-sent somewhere else.
      const res = await safeFetch(webhookUrl, { ...options.fetch, method: 'POST', headers, body: raw, timeoutMs: left, maxRedirects: 0, maxBodyBytes: 1024 });
      if (res.status >= 200 && res.status < 300) {
        logger.info('Link-health alert delivered', { ...context, attempt });
        return true;
      }
      logger.warn('Link-health webhook answered an error', { ...context, attempt, status: res.status });
    } catch (error) {
      logger.warn('Link-health webhook unreachable', { ...context, attempt, error: error as Error });
    }
  }
  logger.error('Link-health alert not delivered', { ...context, attempts: options.attempts });
  return false;
}
