import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import { TransactionConflictException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { setTimeout as delay } from 'node:timers/promises';

export interface CounterHit {
  /** False when the counter had already reached the limit before this request. */
  allowed: boolean;
  /** The counter after this request: past the limit when refused. */
  count: number;
}

/**
 * Counts one request in `bucket` with a single unconditional `ADD`, and allows it when its own count is
 * within `limit`. DynamoDB applies the `ADD`s of concurrent requests one after another and returns each its
 * own new value, so no two requests get the same count and exactly `limit` of them are allowed. A refused
 * request's count stays on the counter (past the limit, which only says "refused" again); without a condition,
 * a refusal is an answer rather than a `ConditionalCheckFailedException`, which is cheaper for DynamoDB and for
 * the function when a client hammers a spent limit.
 * `expiresAt` (epoch seconds) only lets DynamoDB's TTL sweep old windows; the window is part of the key, so
 * correctness never depends on when TTL deletes an item.
 */
export async function incrementWithinLimit(bucket: string, limit: number, expiresAt: number): Promise<CounterHit> {
  const command = new UpdateCommand({
    TableName: tableName('rateLimits'),
    Key: { bucket },
    UpdateExpression: 'ADD #count :one SET #expires = :expires',
    ExpressionAttributeNames: { '#count': 'count', '#expires': 'expires_at' },
    ExpressionAttributeValues: { ':one': 1, ':expires': expiresAt },
    ReturnValues: 'UPDATED_NEW',
  });
  for (let attempt = 1; ; attempt++) {
    try {
      const out = await documentClient().send(command);
      const count = Number((out.Attributes as { count?: number } | undefined)?.count ?? 1);
      return { allowed: count <= limit, count };
    } catch (error) {
      // A counter that a route's transaction is writing at this moment (`counterPart`) refuses a plain write
      // for that instant; the SDK does not retry that, so the count is sent again after a moment.
      if (!(error instanceof TransactionConflictException) || attempt >= CONFLICT_ATTEMPTS) throw error;
      await delay(Math.random() * 10 * attempt);
    }
  }
}

const CONFLICT_ATTEMPTS = 5;

/** Gives back one count taken by `incrementWithinLimit` (a request that, by its limit's rule, does not count). */
export async function giveBack(bucket: string): Promise<void> {
  await updateIf({
    TableName: tableName('rateLimits'),
    Key: { bucket },
    UpdateExpression: 'ADD #count :minus',
    ConditionExpression: '#count > :zero',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
  });
}

/**
 * The counter's update for a request counted in its route's transaction (`countInTransaction`): sets the count
 * to `seen + 1` on the condition that it still is `seen` (absent for 0), and hands back the counter as it was
 * when that fails. A transaction returns no values, so it is this condition that tells the request its exact
 * count: `seen + 1` when the transaction is written. The caller never sends it with `seen` at the limit or past it.
 */
export function counterPart(bucket: string, seen: number, expiresAt: number): TransactionPart {
  return transactionPart({
    Update: {
      TableName: tableName('rateLimits'),
      Key: { bucket },
      UpdateExpression: 'SET #count = :next, #expires = :expires',
      ConditionExpression: seen === 0 ? 'attribute_not_exists(#count)' : '#count = :seen',
      ExpressionAttributeNames: { '#count': 'count', '#expires': 'expires_at' },
      ExpressionAttributeValues: { ':next': seen + 1, ':expires': expiresAt, ...(seen === 0 ? {} : { ':seen': seen }) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });
}

/** The count a counter held when `counterPart`'s condition failed (its raw item from the cancellation). */
export function countFound(item: Record<string, unknown> | undefined): number {
  const raw = (item as Record<string, AttributeValue> | undefined)?.count;
  return raw && 'N' in raw && raw.N !== undefined ? Number(raw.N) : 0;
}
