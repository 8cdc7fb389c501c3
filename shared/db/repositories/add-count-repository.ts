/**
 * Each user's adds of a UTC month, for volume bands (records/price-band.ts): one item per user and month in the
 * counters table, `adds#<user>#<YYYY-MM>` with `n`. An add paid from the balance counts 1 for its user and for
 * every level above it, in the transaction that takes its payment; a refund of it counts −1 in the month the add
 * counted in. A level whose price has bands for the item writes its count on the condition that it is still the
 * count the price was decided on (so the N-th add gets the N-th add's price exactly once); a level without bands
 * just adds, which commutes with everything.
 */
import { batchGetAll } from '../batch';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';

export const addCountKey = (userId: string, month: string) => `adds#${userId}#${month}`;

/** Counts of `userIds` in `month` (absent: 0), strongly consistent, in one BatchGetItem. */
export async function readAddCounts(userIds: readonly string[], month: string): Promise<Map<string, number>> {
  const table = tableName('counters');
  const keys = [...new Set(userIds)].map((id) => ({ counter: addCountKey(id, month) }));
  const found = keys.length > 0 ? await batchGetAll({ [table]: { Keys: keys, ConsistentRead: true } }) : {};
  return countsFromItems(userIds, month, found[table] ?? []);
}

/** The counts among items read with other keys (the add's snapshot). */
export function countsFromItems(userIds: readonly string[], month: string, items: ReadonlyArray<Record<string, unknown>>): Map<string, number> {
  const byKey = new Map(items.map((item) => [String(item.counter), Number(item.n ?? 0)] as const));
  return new Map(userIds.map((id) => [id, byKey.get(addCountKey(id, month)) ?? 0] as const));
}

/** The keys of `userIds`' counts in `month`, to read beside other keys. */
export const addCountKeys = (userIds: readonly string[], month: string) => userIds.map((id) => ({ counter: addCountKey(id, month) }));

/**
 * One more add for `userId` in `month`. `read`: the count the price was decided on, when it depends on it (the
 * write is then conditioned on it); undefined when it does not.
 */
export function addCountPart(userId: string, month: string, read: number | undefined): TransactionPart {
  return transactionPart({
    Update: {
      TableName: tableName('counters'),
      Key: { counter: addCountKey(userId, month) },
      UpdateExpression: 'ADD n :one',
      ...(read === undefined
        ? { ExpressionAttributeValues: { ':one': 1 } }
        : read === 0
          ? { ConditionExpression: 'attribute_not_exists(n) OR n = :zero', ExpressionAttributeValues: { ':one': 1, ':zero': 0 } }
          : { ConditionExpression: 'n = :read', ExpressionAttributeValues: { ':one': 1, ':read': read } }),
    },
  });
}

/** A refunded add no longer counts in the month it counted in. */
export function addUncountPart(userId: string, month: string): TransactionPart {
  return transactionPart({ Update: { TableName: tableName('counters'), Key: { counter: addCountKey(userId, month) }, UpdateExpression: 'ADD n :minus', ExpressionAttributeValues: { ':minus': -1 } } });
}
