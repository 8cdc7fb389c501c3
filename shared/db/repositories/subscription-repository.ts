/**
 * Subscriptions, one partition per user: the running subscription (`current`) and a record of each change
 * (`purchase#…`). A change is always one transaction: the subscription conditioned on the version it was
 * computed from, its record, and (for a purchase) the balance debit, so a lost race changes nothing.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { queryAll } from '../paging';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import { queueHead } from '../work-queue';
import { randomId } from '../../ids';
import type { Subscription, SubscriptionRecord } from '../../records/subscription';
import { snakeCaseFields, type SnakeCased } from '../../snake-case-fields';
import { updatePart } from '../item-update';

const CURRENT = 'current';

/** The key of a user's running subscription (for reads batched with others). */
export const currentSubscriptionKey = (userId: string) => ({ user_id: userId, item_key: CURRENT });

/** The one partition of the sparse `by-notice` index: subscriptions whose end has not been announced yet. */
const NOTICE_SHARD = 'due';

/** The plan's limits are flat attributes (`max_sources`, `apps_per_source`, `published_per_source`). */
type SubscriptionItem = SnakeCased<Omit<Subscription, 'limits' | 'sourceCount'>> & { item_key: string; max_sources: number; apps_per_source: number; published_per_source: number; source_count?: number };

const stored = snakeCaseFields<Subscription>()(['userId', 'tenantId', 'planId', 'planName', 'trial', 'startedAt', 'expiresAt', 'trialUsedAt', 'version']);

/** A stored `current` item (as another repository's batch read returns it) as a subscription. */
export function subscriptionFromItem(item: Record<string, unknown>): Subscription {
  return fromItem(item as unknown as SubscriptionItem);
}

function fromItem(item: SubscriptionItem): Subscription {
  return {
    ...stored.fromSnake(item),
    trialUsedAt: item.trial_used_at,
    limits: { sources: item.max_sources, appsPerSource: item.apps_per_source, publishedPerSource: item.published_per_source },
    sourceCount: item.source_count ?? 0,
  };
}

export async function getSubscription(userId: string): Promise<Subscription | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('subscriptions'), Key: { user_id: userId, item_key: CURRENT }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item as SubscriptionItem) : undefined;
}

/**
 * Writes the subscription's new state if it is still at `seenVersion` (undefined: if the user has none yet).
 * The source count is never written here: only source creation and deletion move it.
 */
export function subscriptionChangePart(next: Omit<Subscription, 'sourceCount' | 'version'>, seenVersion: number | undefined): TransactionPart {
  const values: Record<string, unknown> = {
    ':tenant': next.tenantId,
    ':plan': next.planId,
    ':name': next.planName,
    ':trial': next.trial,
    ':sources': next.limits.sources,
    ':apps': next.limits.appsPerSource,
    ':published': next.limits.publishedPerSource,
    ':started': next.startedAt,
    ':expires': next.expiresAt,
    ':next': (seenVersion ?? 0) + 1,
    ':zero': 0,
    ':notice': NOTICE_SHARD,
  };
  const sets = [
    'tenant_id = :tenant',
    'plan_id = :plan',
    'plan_name = :name',
    'trial = :trial',
    'max_sources = :sources',
    'apps_per_source = :apps',
    'published_per_source = :published',
    'started_at = :started',
    'expires_at = :expires',
    'version = :next',
    'source_count = if_not_exists(source_count, :zero)',
    // A new end starts a new notice cycle (subscription-notices.ts).
    'notice_shard = :notice',
  ];
  if (next.trialUsedAt !== undefined) {
    sets.push('trial_used_at = :trialUsed');
    values[':trialUsed'] = next.trialUsedAt;
  }
  if (seenVersion !== undefined) values[':seen'] = seenVersion;
  return updatePart('subscriptions', { user_id: next.userId, item_key: CURRENT }, {
    change: `SET ${sets.join(', ')}`,
    when: seenVersion === undefined ? 'attribute_not_exists(user_id)' : 'version = :seen',
    values,
  });
}

/** The record of a change, its own item in the user's partition, keyed by time so a user's history reads in order. */
export function subscriptionRecordPart(userId: string, tenantId: string, record: SubscriptionRecord): TransactionPart {
  return transactionPart({
    Put: {
      TableName: tableName('subscriptions'),
      Item: {
        user_id: userId,
        item_key: `purchase#${String(record.at).padStart(12, '0')}#${randomId('', 8)}`,
        tenant_id: tenantId,
        kind: record.kind,
        plan_id: record.planId,
        price: record.price,
        days: record.days,
        period_start: record.periodStart,
        period_end: record.periodEnd,
        at: record.at,
      },
      ConditionExpression: 'attribute_not_exists(item_key)',
    },
  });
}

/** The user's records, oldest first. */
export async function listSubscriptionRecords(userId: string): Promise<Array<SubscriptionRecord & { tenantId: string }>> {
  const items = await queryAll({
    TableName: tableName('subscriptions'),
    KeyConditionExpression: 'user_id = :u AND begins_with(item_key, :p)',
    ExpressionAttributeValues: { ':u': userId, ':p': 'purchase#' },
  });
  return items.map((i) => ({
    tenantId: String(i.tenant_id),
    kind: i.kind as SubscriptionRecord['kind'],
    planId: String(i.plan_id),
    price: Number(i.price),
    days: Number(i.days),
    periodStart: Number(i.period_start),
    periodEnd: Number(i.period_end),
    at: Number(i.at),
  }));
}

/**
 * Holds a transaction to the user's subscription on `tenantId` running at `now` (`isActive`: `now < expires_at`),
 * writing nothing: the "may write" judgement of an owner's limits carried by the write itself instead of a read
 * before it. A failure hands back the item as it was (none when there is none) for `subscriptionSeenByCheck`.
 */
export function runningSubscriptionCheckPart(userId: string, tenantId: string, now: number): TransactionPart {
  return transactionPart({
    ConditionCheck: {
      TableName: tableName('subscriptions'),
      Key: currentSubscriptionKey(userId),
      ConditionExpression: 'tenant_id = :tenant AND expires_at > :now',
      ExpressionAttributeValues: { ':tenant': tenantId, ':now': now },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });
}

/**
 * The subscription a failed `runningSubscriptionCheckPart` saw, from the raw attribute values a cancellation
 * returns (strings, numbers and booleans only: the item holds nothing else). Undefined when there was none.
 */
export function subscriptionSeenByCheck(returned: Record<string, unknown> | undefined): Subscription | undefined {
  if (!returned || Object.keys(returned).length === 0) return undefined;
  const item: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(returned as Record<string, { S?: string; N?: string; BOOL?: boolean }>)) {
    item[name] = value.S ?? (value.N !== undefined ? Number(value.N) : value.BOOL);
  }
  return fromItem(item as unknown as SubscriptionItem);
}

/**
 * Takes one source of the plan's count: only while the subscription on this tenant runs and the count is
 * below the plan's sources. In the transaction that creates the source, so K racing creates with room for J
 * create exactly J.
 */
export function sourceSlotTakePart(userId: string, tenantId: string, now: number): TransactionPart {
  return updatePart('subscriptions', { user_id: userId, item_key: CURRENT }, {
    change: 'SET source_count = if_not_exists(source_count, :zero) + :one',
    when: 'tenant_id = :tenant AND expires_at > :now AND (attribute_not_exists(source_count) OR source_count < max_sources)',
    values: { ':tenant': tenantId, ':now': now, ':zero': 0, ':one': 1 },
  });
}

/** Gives a source back to the plan's count, in the transaction that deletes the source. */
export function sourceSlotReturnPart(userId: string): TransactionPart {
  return updatePart('subscriptions', { user_id: userId, item_key: CURRENT }, {
    change: 'SET source_count = source_count - :one',
    when: 'source_count > :zero',
    values: { ':zero': 0, ':one': 1 },
  });
}

/** A subscription the notice pass looks at: its end, and whether `subscription.expiring` went out for that end. */
export interface SubscriptionNoticeDue {
  subscription: Subscription;
  expiringToldFor: number;
}

/** Subscriptions not yet announced as ended whose end is before `until`, soonest first. */
export async function listSubscriptionNoticesDue(until: number, limit: number): Promise<SubscriptionNoticeDue[]> {
  const items = await queueHead({ table: 'subscriptions', index: 'by-notice', queue: ['notice_shard', NOTICE_SHARD], due: ['expires_at', '<=', until], limit });
  return items.map((item) => ({ subscription: fromItem(item as SubscriptionItem), expiringToldFor: Number(item.expiring_told_for ?? 0) }));
}

/** An update of the running subscription that applies only if it is still the one the notice pass read. */
function noticeMarkPart(subscription: Subscription, update: string): TransactionPart {
  return updatePart('subscriptions', { user_id: subscription.userId, item_key: CURRENT }, {
    change: update,
    when: 'version = :v AND expires_at = :end',
    values: { ':end': subscription.expiresAt, ':v': subscription.version },
  });
}

/** Marks `subscription.expiring` sent for this end. */
export const expiringToldPart = (subscription: Subscription) => noticeMarkPart(subscription, 'SET expiring_told_for = :end');

/** Takes the subscription out of the notice index once its end is announced. */
export const expiredToldPart = (subscription: Subscription) => noticeMarkPart(subscription, 'REMOVE notice_shard');
