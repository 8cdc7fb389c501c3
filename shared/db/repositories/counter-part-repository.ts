/**
 * The rate-limit counter as a part of a route's own transaction (`countInTransaction` routes): its own module,
 * so only the functions of those routes carry it.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';

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
