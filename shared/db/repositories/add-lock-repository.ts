/**
 * Short-lived locks (one per user + UDID + pool) that serialize concurrent identical adds, so they register
 * and charge once. A lock expires on its own (`expires_at`), so a crashed add cannot block the UDID for long.
 */
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';

/** When a released lock item stops being kept (it carries the marker of the last add, `recent_kid`). */
const RECENT_TTL_SECONDS = 300;

/**
 * Whether the caller now holds the lock and, when it does, what the lock item said as it was taken: the marker
 * (the last add's kid), and whether an add of this key held the lock or delivered in the item's lifetime
 * (`recent`: the item was there and not yet expired).
 */
export type LockAttempt = { held: false } | { held: true; recentKid: string | undefined; recent: boolean };

/**
 * Takes the lock with one conditional UpdateItem that hands back the item as it was. The add that held the
 * lock before wrote its certificate's kid on the lock item in the same transaction that released it, so the
 * marker comes back with the lock, as current as the lock itself: no read under the lock is needed to see it.
 */
export async function tryLock(lockKey: string, owner: string, nowSeconds: number, ttlSeconds: number): Promise<LockAttempt> {
  const out = await updateIf({
    TableName: tableName('addLocks'),
    Key: { lock_key: lockKey },
    UpdateExpression: 'SET #o = :o, expires_at = :e',
    ConditionExpression: 'attribute_not_exists(#o) OR expires_at < :now',
    ExpressionAttributeNames: { '#o': 'owner' },
    ExpressionAttributeValues: { ':o': owner, ':e': nowSeconds + ttlSeconds, ':now': nowSeconds },
    ReturnValues: 'ALL_OLD',
  });
  if (!out.written) return { held: false };
  const before = out.output.Attributes;
  return { held: true, recentKid: recentAddKid({ kid: before?.recent_kid }), recent: Number(before?.expires_at ?? 0) >= nowSeconds };
}

const ownedBy = (lockKey: string) => ({
  TableName: tableName('addLocks'),
  Key: { lock_key: lockKey },
  ConditionExpression: '#o = :o',
  ExpressionAttributeNames: { '#o': 'owner' },
});

/**
 * The lock's release as a transaction part: an add that succeeds frees its lock in its final transaction and
 * leaves its certificate's kid on the item for the next identical add's lock to hand back.
 */
export function unlockPart(lockKey: string, owner: string, kid: string, nowSeconds: number): TransactionPart {
  return transactionPart({
    Update: {
      ...ownedBy(lockKey),
      UpdateExpression: 'REMOVE #o SET recent_kid = :kid, expires_at = :e',
      ExpressionAttributeValues: { ':o': owner, ':kid': kid, ':e': nowSeconds + RECENT_TTL_SECONDS },
    },
  });
}

/**
 * Frees the lock, unless it expired and another add took it over (that one releases it). The marker of an
 * earlier add stays on the item.
 */
export async function unlock(lockKey: string, owner: string): Promise<void> {
  await updateIf({ ...ownedBy(lockKey), UpdateExpression: 'REMOVE #o', ExpressionAttributeValues: { ':o': owner } });
}

/**
 * The newest certificate an add delivered for this lock key, as an item of its own (`recent#<key>`): the
 * marker functions deployed before the lock item carried it (`unlockPart`) read, under their lock. It is still
 * written by the add's final transaction and read beside the lock (`add-snapshot-repository.ts`), so adds of
 * both versions see each other's certificates while a deployment rolls over; the lock's own marker is the
 * one that is current by construction.
 */
export const recentAddKey = (lockKey: string) => ({ lock_key: `recent#${lockKey}` });

export function recentAddPart(lockKey: string, kid: string, nowSeconds: number): TransactionPart {
  return transactionPart({ Put: { TableName: tableName('addLocks'), Item: { ...recentAddKey(lockKey), kid, expires_at: nowSeconds + RECENT_TTL_SECONDS } } });
}

export function recentAddKid(item: Record<string, unknown> | undefined): string | undefined {
  return typeof item?.kid === 'string' ? item.kid : undefined;
}
