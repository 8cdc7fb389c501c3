/**
 * The dispatcher: takes an event from the outbox to the user's webhook. Deployed, the `events` table's stream
 * hands every new event to `dispatchStoredEvent` at once; a failed attempt is not retried by the stream (that
 * would block the shard) but rescheduled on the item, and the scheduled retry pass (`runDispatchPass`) reads
 * the due index for it. Under `npm start` the retry pass runs every second and so also makes the first
 * attempts: one code path, one outbox.
 *
 * At least once: an attempt is claimed (conditional write) before it is made, so two dispatchers never make
 * the same attempt, but an attempt whose outcome was not recorded (a crash after the POST) is made again
 * once its claim runs out. Receivers drop repeats by the event id.
 */
import { getWebhook, recordDelivery } from '../../db/repositories/webhook-repository';
import { claimEvent, DELIVERY_SHARDS, listDueEvents, rescheduleEvent, settleEvent, type StoredEvent } from '../../db/repositories/event-repository';
import { logger } from '../../logger';
import { deliver, type DeliveryFetchOptions } from './delivery';
import type { ServiceEvent } from '../../records/event';

/** Retries go on this long after the event; a webhook failing this long is disabled. */
export const RETRY_WINDOW_SECONDS = 24 * 60 * 60;
/** How long a claimed attempt may take before another dispatcher may make it again (the POST takes ≤ 5 s). */
export const ATTEMPT_LEASE_SECONDS = 60;
export const FIRST_RETRY_SECONDS = 30;
const LONGEST_RETRY_SECONDS = 60 * 60;

/** After the `attempts`-th failure: 30 s, 1 min, 2 min … doubling, at most an hour apart. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_SECONDS);
}

export type DispatchOutcome = 'delivered' | 'skipped' | 'retrying' | 'failed' | 'not_owed';

export interface DispatchOptions {
  fetch?: DeliveryFetchOptions;
}

/** The body receivers get: the event itself. */
export function eventBody(event: ServiceEvent) {
  return { id: event.id, type: event.type, created: event.created, tenant_id: event.tenant_id, user_id: event.user_id, data: event.data };
}

export async function dispatchStoredEvent(stored: StoredEvent, now: number, options: DispatchOptions = {}): Promise<DispatchOutcome> {
  const { event, key } = stored;
  if (stored.deliveryDueAt === undefined) return 'not_owed';
  const webhook = await getWebhook(event.user_id);
  // Events from before the webhook was set, of types it did not ask for, or for a disabled one are not sent
  // (they stay in the feed).
  if (!webhook || webhook.tenantId !== event.tenant_id || !webhook.events.includes(event.type) || webhook.createdAt > event.created || webhook.disabledAt > 0) {
    await settleEvent(key, 'skipped', now);
    return 'skipped';
  }
  if (!(await claimEvent(key, stored.deliveryDueAt, now + ATTEMPT_LEASE_SECONDS))) return 'not_owed';
  const attempts = stored.attempts + 1;
  const result = await deliver(webhook.url, webhook.secret, eventBody(event), now, options.fetch);
  const after = await recordDelivery(webhook, { at: now, event_id: event.id, type: event.type, attempt: attempts, ok: result.ok, status: result.status, error: result.error }, RETRY_WINDOW_SECONDS);
  const context = { eventId: event.id, type: event.type, userId: event.user_id, attempts, status: result.status };
  if (result.ok) {
    await settleEvent(key, 'delivered', now);
    logger.info('Event delivered', context);
    return 'delivered';
  }
  // The last attempt is made when the window ends, so a receiver down all along has failed for the whole 24 hours.
  const windowEnd = event.created + RETRY_WINDOW_SECONDS;
  const next = Math.min(now + retryDelaySeconds(attempts), windowEnd);
  if (now >= windowEnd || (after?.disabledAt ?? 0) > 0) {
    await settleEvent(key, 'failed', now, result.error ?? 'http_status');
    logger.warn('Event not delivered: gave up', { ...context, error: result.error, disabled: (after?.disabledAt ?? 0) > 0 });
    return 'failed';
  }
  await rescheduleEvent(key, next, result.error ?? 'http_status');
  logger.info('Event delivery failed; retrying later', { ...context, error: result.error, next });
  return 'retrying';
}

export type PassReport = Record<DispatchOutcome, number> & { errors: number };

const PER_SHARD = 25;

/**
 * Every event due at `now`, shard by shard (shards in parallel, events of a shard one after the other); no
 * new event is started after `budgetMs`. An event that throws stays due and is taken by a later pass.
 */
export async function runDispatchPass(now: number, options: DispatchOptions & { budgetMs?: number } = {}): Promise<PassReport> {
  const report: PassReport = { delivered: 0, skipped: 0, retrying: 0, failed: 0, not_owed: 0, errors: 0 };
  const stopAt = Date.now() + (options.budgetMs ?? 45_000);
  await Promise.all(
    Array.from({ length: DELIVERY_SHARDS }, async (_, shard) => {
      for (const stored of await listDueEvents(shard, now, PER_SHARD)) {
        if (Date.now() > stopAt) break;
        try {
          report[await dispatchStoredEvent(stored, now, options)]++;
        } catch (error) {
          report.errors++;
          logger.warn('Event dispatch failed; a later pass retries', { eventId: stored.event.id, error: error as Error });
        }
      }
    }),
  );
  return report;
}
