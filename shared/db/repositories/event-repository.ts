/**
 * The `events` table: the outbox and the events feed in one. An event's item is keyed by its user and
 * `event_key` (`<created, 10 digits>_<id>`), so a user's events are one Query, oldest first, and a cursor is an
 * `event_key` (or a bare 10-digit second: every event from that second on).
 *
 * Delivery state lives on the item: `delivery_shard` + `delivery_due_at` (the sparse `by-delivery-due`
 * index) are present while a delivery is owed, so the retry pass reads only due work. The dispatcher claims
 * an event by moving `delivery_due_at` forward under the condition that it still holds the value it saw, so
 * a stream invocation and a retry pass never deliver the same attempt twice.
 */
import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import { EVENT_RETENTION_SECONDS, type EventType, type ServiceEvent } from '../../records/event';

/** Partitions of the due index, so the retry pass's reads spread out. */
export const DELIVERY_SHARDS = 4;

export interface EventKey {
  user_id: string;
  event_key: string;
}

/** An event with what the dispatcher needs to claim it. */
export interface StoredEvent {
  event: ServiceEvent;
  key: EventKey;
  /** undefined once nothing is owed (delivered, skipped or given up). */
  deliveryDueAt: number | undefined;
  attempts: number;
}

export function eventKeyOf(created: number, id: string): string {
  return `${String(created).padStart(10, '0')}_${id}`;
}

function shardOf(id: string): string {
  return `d${createHash('sha256').update(id).digest()[0]! % DELIVERY_SHARDS}`;
}

export function eventPutPart(event: ServiceEvent): TransactionPart {
  return transactionPart({
    Put: {
      TableName: tableName('events'),
      Item: {
        user_id: event.user_id,
        event_key: eventKeyOf(event.created, event.id),
        id: event.id,
        type: event.type,
        created: event.created,
        tenant_id: event.tenant_id,
        data: event.data,
        expires_at: event.created + EVENT_RETENTION_SECONDS,
        delivery_shard: shardOf(event.id),
        delivery_due_at: event.created,
        delivery_attempts: 0,
      },
      ConditionExpression: 'attribute_not_exists(event_key)',
    },
  });
}

/** The event an item (a Query result, a stream image unmarshalled) holds. */
export function storedEventFromItem(item: Record<string, unknown>): StoredEvent {
  return {
    event: {
      id: String(item.id),
      type: String(item.type) as EventType,
      created: Number(item.created),
      tenant_id: String(item.tenant_id),
      user_id: String(item.user_id),
      data: (item.data ?? {}) as Record<string, unknown>,
    },
    key: { user_id: String(item.user_id), event_key: String(item.event_key) },
    deliveryDueAt: item.delivery_due_at === undefined ? undefined : Number(item.delivery_due_at),
    attempts: Number(item.delivery_attempts ?? 0),
  };
}

/**
 * One page of a user's events after `after`, oldest first: one Query. With `types`, the page is filtered after
 * it is read (it may hold fewer than `limit`); `lastKey` says where the next page starts, when there is one.
 */
export async function queryEventsPage(userId: string, options: { after: string | undefined; limit: number; types?: readonly string[] }): Promise<{ events: ServiceEvent[]; keys: string[]; lastKey: string | undefined }> {
  const types = options.types ?? [];
  const values: Record<string, unknown> = { ':u': userId };
  types.forEach((t, i) => (values[`:t${i}`] = t));
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('events'),
      KeyConditionExpression: options.after ? 'user_id = :u AND event_key > :after' : 'user_id = :u',
      ...(types.length ? { FilterExpression: `#type IN (${types.map((_, i) => `:t${i}`).join(', ')})`, ExpressionAttributeNames: { '#type': 'type' } } : {}),
      ExpressionAttributeValues: { ...values, ...(options.after ? { ':after': options.after } : {}) },
      Limit: options.limit,
      // Strongly consistent: an event a transaction just wrote is in the page that follows it.
      ConsistentRead: true,
    }),
  );
  const items = out.Items ?? [];
  return {
    events: items.map((i) => storedEventFromItem(i).event),
    keys: items.map((i) => String(i.event_key)),
    lastKey: out.LastEvaluatedKey ? String(out.LastEvaluatedKey.event_key) : undefined,
  };
}

/** A user's `limit` most recent events, newest first: one Query (a dashboard's "latest events"). */
export async function latestEvents(userId: string, limit: number): Promise<ServiceEvent[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('events'),
      KeyConditionExpression: 'user_id = :u',
      ExpressionAttributeValues: { ':u': userId },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => storedEventFromItem(i).event);
}

/** Events whose delivery is due at `now` in one shard of the due index, oldest due first. */
export async function listDueEvents(shard: number, now: number, limit: number): Promise<StoredEvent[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('events'),
      IndexName: 'by-delivery-due',
      KeyConditionExpression: 'delivery_shard = :s AND delivery_due_at <= :now',
      ExpressionAttributeValues: { ':s': `d${shard}`, ':now': now },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map(storedEventFromItem);
}

/**
 * Takes the next delivery attempt of an event: `delivery_due_at` moves from the value the caller saw to
 * `leaseUntil` (when another attempt may start if this one dies). False when someone else took it first or
 * nothing is owed any more.
 */
export async function claimEvent(key: EventKey, seenDueAt: number, leaseUntil: number): Promise<boolean> {
  const out = await updateIf({
    TableName: tableName('events'),
    Key: key,
    UpdateExpression: 'SET delivery_due_at = :lease, delivery_attempts = if_not_exists(delivery_attempts, :zero) + :one',
    ConditionExpression: 'delivery_due_at = :seen',
    ExpressionAttributeValues: { ':lease': leaseUntil, ':seen': seenDueAt, ':zero': 0, ':one': 1 },
  });
  return out.written;
}

/** Nothing more is owed: `delivered`, `skipped` (no webhook, not subscribed, disabled) or `failed` (gave up). */
export async function settleEvent(key: EventKey, outcome: 'delivered' | 'skipped' | 'failed', at: number, error?: string): Promise<void> {
  await updateIf({
    TableName: tableName('events'),
    Key: key,
    UpdateExpression: `SET delivery = :o, delivery_settled_at = :at${error ? ', delivery_error = :e' : ''} REMOVE delivery_shard, delivery_due_at`,
    ConditionExpression: 'attribute_exists(event_key)',
    ExpressionAttributeValues: { ':o': outcome, ':at': at, ...(error ? { ':e': error } : {}) },
  });
}

/** The attempt failed: the next one is due at `at`. */
export async function rescheduleEvent(key: EventKey, at: number, error: string): Promise<void> {
  await updateIf({
    TableName: tableName('events'),
    Key: key,
    UpdateExpression: 'SET delivery_due_at = :at, delivery_error = :e',
    ConditionExpression: 'attribute_exists(delivery_due_at)',
    ExpressionAttributeValues: { ':at': at, ':e': error },
  });
}
