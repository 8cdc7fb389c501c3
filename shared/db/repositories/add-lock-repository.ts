/**
 * Short-lived locks (one per user + UDID + pool) that serialize concurrent identical adds, so they register
 * and charge once. A lock expires on its own (`expires_at`), so a crashed add cannot block the UDID for long.
 */
import { deleteIf, putIf } from '../conditional-write';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';

/** True when this caller now holds the lock. */
export async function tryLock(lockKey: string, owner: string, nowSeconds: number, ttlSeconds: number): Promise<boolean> {
  const out = await putIf({
    TableName: tableName('addLocks'),
    Item: { lock_key: lockKey, owner, expires_at: nowSeconds + ttlSeconds },
    ConditionExpression: 'attribute_not_exists(lock_key) OR expires_at < :now',
    ExpressionAttributeValues: { ':now': nowSeconds },
  });
  return out.written;
}

const release = (lockKey: string, owner: string) => ({
  TableName: tableName('addLocks'),
  Key: { lock_key: lockKey },
  ConditionExpression: '#o = :o',
  ExpressionAttributeNames: { '#o': 'owner' },
  ExpressionAttributeValues: { ':o': owner },
});

/** The lock's release as a transaction part: an add that succeeds frees its lock in its final transaction. */
export function unlockPart(lockKey: string, owner: string): TransactionPart {
  return transactionPart({ Delete: release(lockKey, owner) });
}

/** Frees the lock, unless it expired and another add took it over (that one releases it). */
export async function unlock(lockKey: string, owner: string): Promise<void> {
  await deleteIf(release(lockKey, owner));
}

/**
 * The newest certificate an add delivered for this lock key, written in the add's transaction and read with a
 * strongly consistent read (`add-snapshot-repository.ts`): the user+UDID index is eventually consistent, and the add right after (a waiting
 * duplicate, a quick retry) must see it.
 */
const RECENT_TTL_SECONDS = 300;

export const recentAddKey = (lockKey: string) => ({ lock_key: `recent#${lockKey}` });

export function recentAddPart(lockKey: string, kid: string, nowSeconds: number): TransactionPart {
  return transactionPart({ Put: { TableName: tableName('addLocks'), Item: { ...recentAddKey(lockKey), kid, expires_at: nowSeconds + RECENT_TTL_SECONDS } } });
}

export function recentAddKid(item: Record<string, unknown> | undefined): string | undefined {
  return typeof item?.kid === 'string' ? item.kid : undefined;
}
