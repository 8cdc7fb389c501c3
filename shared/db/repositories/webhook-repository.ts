/**
 * Each user's webhook (one item per user): where events go, which types, the signing secret, and how its
 * deliveries have been going. The delivery counters move with conditional updates only, so concurrent
 * dispatchers add up rather than overwrite each other.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import { RECENT_DELIVERIES, RECENT_DELIVERIES_KEPT, type DeliveryAttempt, type Webhook } from '../../records/webhook';
import { snakeCaseFields, type SnakeCased } from '../../snake-case-fields';
import { itemUpdate } from '../item-update';

/** The delivery record's fields are absent until the first delivery: they read as zero (and `lastError` as null). */
type WebhookItem = Partial<SnakeCased<Webhook>> & SnakeCased<Pick<Webhook, 'userId' | 'tenantId' | 'url' | 'events' | 'secret' | 'createdAt' | 'updatedAt'>>;

const stored = snakeCaseFields<Webhook>()(['userId', 'tenantId', 'url', 'events', 'secret', 'createdAt', 'updatedAt']);
const NO_DELIVERY = { lastAttemptAt: 0, lastSuccessAt: 0, lastStatus: 0, lastError: null, consecutiveFailures: 0, failingSince: 0, disabledAt: 0, recentDeliveries: [] };
const delivery = snakeCaseFields<Webhook>()(['lastAttemptAt', 'lastSuccessAt', 'lastStatus', 'lastError', 'consecutiveFailures', 'failingSince', 'disabledAt', 'recentDeliveries']);

const fromItem = (item: WebhookItem): Webhook => ({ ...stored.fromSnake(item), ...NO_DELIVERY, ...delivery.fromSnake(item) });

export async function getWebhook(userId: string): Promise<Webhook | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('webhooks'), Key: { user_id: userId }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item as WebhookItem) : undefined;
}

/** Stores the webhook whole: a new configuration starts with a clean delivery record (and is enabled). */
export async function putWebhook(webhook: Pick<Webhook, 'userId' | 'tenantId' | 'url' | 'events' | 'secret' | 'createdAt' | 'updatedAt'>): Promise<Webhook> {
  const item: WebhookItem = stored.toSnake({ ...webhook, events: [...webhook.events] });
  await documentClient().send(new PutCommand({ TableName: tableName('webhooks'), Item: item }));
  return fromItem(item);
}

/** True when there was one. */
export async function deleteWebhook(userId: string): Promise<boolean> {
  const out = await documentClient().send(new DeleteCommand({ TableName: tableName('webhooks'), Key: { user_id: userId }, ReturnValues: 'ALL_OLD' }));
  return out.Attributes !== undefined;
}

/**
 * Records one delivery attempt against the configuration it was made for (`createdAt` unchanged: a webhook
 * replaced meanwhile is not charged with the old one's failures). A failure that extends a streak older
 * than `disableAfterSeconds` disables the webhook. Returns the state after the update, undefined when the
 * webhook is gone or was replaced.
 */
export async function recordDelivery(
  webhook: Pick<Webhook, 'userId' | 'createdAt' | 'updatedAt'>,
  attempt: DeliveryAttempt,
  disableAfterSeconds: number,
): Promise<Webhook | undefined> {
  const key = { user_id: webhook.userId };
  const entry: DeliveryAttempt = { ...attempt, error: attempt.ok ? null : (attempt.error ?? 'http_status') };
  // The attempt goes on the front of the recent list in the same write as the counters.
  const base = { ':at': attempt.at, ':status': attempt.status, ':created': webhook.createdAt, ':updated': webhook.updatedAt, ':entry': [entry], ':none': [] };
  const recent = 'recent_deliveries = list_append(:entry, if_not_exists(recent_deliveries, :none))';
  const sameConfig = 'created_at = :created AND updated_at = :updated';
  if (attempt.ok) {
    const out = await updateIf({ ...itemUpdate('webhooks', key, {
      change: `SET last_attempt_at = :at, last_success_at = :at, last_status = :status, consecutive_failures = :zero, ${recent} REMOVE last_error, failing_since`,
      when: sameConfig,
      values: { ...base, ':zero': 0 },
    }), ReturnValues: 'ALL_NEW' });
    return out.written ? trimmed(fromItem(out.output.Attributes as WebhookItem)) : undefined;
  }
  const out = await updateIf({ ...itemUpdate('webhooks', key, {
    change: `SET last_attempt_at = :at, last_status = :status, last_error = :error, consecutive_failures = if_not_exists(consecutive_failures, :zero) + :one, failing_since = if_not_exists(failing_since, :at), ${recent}`,
    when: sameConfig,
    values: { ...base, ':error': entry.error, ':zero': 0, ':one': 1 },
  }), ReturnValues: 'ALL_NEW' });
  if (!out.written) return undefined;
  const after = await trimmed(fromItem(out.output.Attributes as WebhookItem));
  if (after.disabledAt === 0 && after.failingSince > 0 && attempt.at - after.failingSince >= disableAfterSeconds) {
    const disabled = await updateIf({ ...itemUpdate('webhooks', key, {
      change: 'SET disabled_at = :at',
      when: `${sameConfig} AND attribute_not_exists(disabled_at) AND attribute_exists(failing_since)`,
      values: { ':at': attempt.at, ':created': webhook.createdAt, ':updated': webhook.updatedAt },
    }), ReturnValues: 'ALL_NEW' });
    if (disabled.written) return fromItem(disabled.output.Attributes as WebhookItem);
  }
  return after;
}

/**
 * Cuts the recent list back to RECENT_DELIVERIES once it holds RECENT_DELIVERIES_KEPT: removes the tail by
 * index, only while the list is still that long (a concurrent cut already did it otherwise; entries put on
 * the front meanwhile only push the tail further back, so the newest are never the ones removed).
 */
async function trimmed(webhook: Webhook): Promise<Webhook> {
  if (webhook.recentDeliveries.length < RECENT_DELIVERIES_KEPT) return webhook;
  const tail = Array.from({ length: RECENT_DELIVERIES_KEPT - RECENT_DELIVERIES }, (_, i) => `recent_deliveries[${RECENT_DELIVERIES + i}]`);
  await updateIf(itemUpdate('webhooks', { user_id: webhook.userId }, {
    change: `REMOVE ${tail.join(', ')}`,
    when: 'size(recent_deliveries) >= :kept',
    values: { ':kept': RECENT_DELIVERIES_KEPT },
  }));
  return { ...webhook, recentDeliveries: webhook.recentDeliveries.slice(0, RECENT_DELIVERIES) };
}
