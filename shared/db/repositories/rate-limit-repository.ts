import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';

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
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName('rateLimits'),
      Key: { bucket },
      UpdateExpression: 'ADD #count :one SET #expires = :expires',
      ExpressionAttributeNames: { '#count': 'count', '#expires': 'expires_at' },
      ExpressionAttributeValues: { ':one': 1, ':expires': expiresAt },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const count = Number((out.Attributes as { count?: number } | undefined)?.count ?? 1);
  return { allowed: count <= limit, count };
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
