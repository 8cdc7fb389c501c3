/**
 * Each user's webhook (one item per user): where events go, which types, the signing secret, and how its
 * deliveries have been going. The delivery counters move with conditional updates only, so concurrent
 * dispatchers add up rather than overwrite each other.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import type { Webhook } from '../../domain/events/webhook';

interface WebhookItem {
  user_id: string;
  tenant_id: string;
  url: string;
  events: string[];
  secret: string;
  created_at: number;
  updated_at: number;
  last_attempt_at?: number;
  last_success_at?: number;
  last_status?: number;
  last_error?: string;
  consecutive_failures?: number;
  failing_since?: number;
  disabled_at?: number;
}

function fromItem(i: WebhookItem): Webhook {
  return {
    userId: i.user_id,
    tenantId: i.tenant_id,
    url: i.url,
    events: i.events,
    secret: i.secret,
    createdAt: i.created_at,
    updatedAt: i.updated_at,
    lastAttemptAt: i.last_attempt_at ?? 0,
    lastSuccessAt: i.last_success_at ?? 0,
    lastStatus: i.last_status ?? 0,
    lastError: i.last_error ?? null,
    consecutiveFailures: i.consecutive_failures ?? 0,
    failingSince: i.failing_since ?? 0,
    disabledAt: i.disabled_at ?? 0,
  };
}

export async function getWebhook(userId: string): Promise<Webhook | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('webhooks'), Key: { user_id: userId }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item as WebhookItem) : undefined;
}

/** Stores the webhook whole: a new configuration starts with a clean delivery record (and is enabled). */
export async function putWebhook(webhook: Pick<Webhook, 'userId' | 'tenantId' | 'url' | 'events' | 'secret' | 'createdAt' | 'updatedAt'>): Promise<Webhook> {
  const item: WebhookItem = {
    user_id: webhook.userId,
    tenant_id: webhook.tenantId,
    url: webhook.url,
    events: [...webhook.events],
    secret: webhook.secret,
    created_at: webhook.createdAt,
    updated_at: webhook.updatedAt,
  };
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
  attempt: { at: number; ok: boolean; status: number; error: string | null },
  disableAfterSeconds: number,
): Promise<Webhook | undefined> {
  const key = { user_id: webhook.userId };
  const base = { ':at': attempt.at, ':status': attempt.status, ':created': webhook.createdAt, ':updated': webhook.updatedAt };
  const sameConfig = 'created_at = :created AND updated_at = :updated';
  if (attempt.ok) {
    const out = await updateIf({
      TableName: tableName('webhooks'),
      Key: key,
      UpdateExpression: 'SET last_attempt_at = :at, last_success_at = :at, last_status = :status, consecutive_failures = :zero REMOVE last_error, failing_since',
      ConditionExpression: sameConfig,
      ExpressionAttributeValues: { ...base, ':zero': 0 },
      ReturnValues: 'ALL_NEW',
    });
    return out.written ? fromItem(out.output.Attributes as WebhookItem) : undefined;
  }
  const out = await updateIf({
    TableName: tableName('webhooks'),
    Key: key,
    UpdateExpression:
      'SET last_attempt_at = :at, last_status = :status, last_error = :error, consecutive_failures = if_not_exists(consecutive_failures, :zero) + :one, failing_since = if_not_exists(failing_since, :at)',
    ConditionExpression: sameConfig,
    ExpressionAttributeValues: { ...base, ':error': attempt.error ?? 'http_status', ':zero': 0, ':one': 1 },
    ReturnValues: 'ALL_NEW',
  });
  if (!out.written) return undefined;
  const after = fromItem(out.output.Attributes as WebhookItem);
  if (after.disabledAt === 0 && after.failingSince > 0 && attempt.at - after.failingSince >= disableAfterSeconds) {
    const disabled = await updateIf({
      TableName: tableName('webhooks'),
      Key: key,
      UpdateExpression: 'SET disabled_at = :at',
      ConditionExpression: `${sameConfig} AND attribute_not_exists(disabled_at) AND attribute_exists(failing_since)`,
      ExpressionAttributeValues: { ':at': attempt.at, ':created': webhook.createdAt, ':updated': webhook.updatedAt },
      ReturnValues: 'ALL_NEW',
    });
    if (disabled.written) return fromItem(disabled.output.Attributes as WebhookItem);
  }
  return after;
}
