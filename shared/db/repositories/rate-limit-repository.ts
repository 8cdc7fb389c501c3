import { updateIf } from '../conditional-write';
import { tableName } from '../tables';

export interface CounterHit {
  /** False when the counter had already reached the limit: nothing was counted. */
  allowed: boolean;
  /** The counter after this request (the limit itself when refused). */
  count: number;
}

/**
 * Counts one request in `bucket` unless the counter has reached `limit`, in a single conditional UpdateItem:
 * concurrent requests cannot both take the last slot, and a refused request leaves the counter unchanged.
 * `expiresAt` (epoch seconds) only lets DynamoDB's TTL sweep old windows; the window is part of the key, so
 * correctness never depends on when TTL deletes an item.
 */
export async function incrementWithinLimit(bucket: string, limit: number, expiresAt: number): Promise<CounterHit> {
  const out = await updateIf({
    TableName: tableName('rateLimits'),
    Key: { bucket },
    UpdateExpression: 'ADD #count :one SET #expires = :expires',
    ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
    ExpressionAttributeNames: { '#count': 'count', '#expires': 'expires_at' },
    ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': expiresAt },
    ReturnValues: 'UPDATED_NEW',
  });
  if (!out.written) return { allowed: false, count: limit };
  return { allowed: true, count: Number((out.output.Attributes as { count?: number } | undefined)?.count ?? 1) };
}

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
