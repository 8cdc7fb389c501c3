/**
 * Serializes identical adds (same user, UDID and pool): the second waits for the first and then, finding the
 * certificate the first delivered, returns it instead of registering and charging again.
 */
import { randomUUID } from 'node:crypto';
import { tryLock, unlock, unlockPart, type LockAttempt } from '../../db/repositories/add-lock-repository';
import type { TransactionPart } from '../../db/transactions';
import { udidKey } from '../../records/device';
import { DomainError } from '../errors';

/** Longer than an add can take (Apple calls time out at 15 s, a few tries each); a crashed add frees it then. */
const LOCK_TTL_SECONDS = 60;
const WAIT_STEP_MS = 100;
/** An identical add waits at most this long for the first to finish, then gives up (`add_in_progress`). */
const MAX_WAIT_MS = 20_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function addLockKey(key: { userId: string; udid: string; pool: number }): string {
  return `${key.userId}#${udidKey(key.udid)}#${key.pool}`;
}

/**
 * The held lock, for work that releases it inside its own final transaction (one round trip fewer): put
 * `part(kid)` in the transaction (it leaves the kid on the lock item as the marker of this add) and call
 * `released()` once it is written. `recentKid`: the marker the lock item carried when it was taken, the
 * certificate the last add of this key delivered.
 */
export interface HeldLock {
  recentKid: string | undefined;
  /**
   * Another add of this key ran a moment ago: the lock was held when first tried, or the item shows an add
   * that held it or delivered within its lifetime. What was read before the lock may predate its writes.
   */
  contended: boolean;
  part(kid: string, nowSeconds: number): TransactionPart;
  released(): void;
}

/**
 * Runs `work` holding the lock; `waited` tells it another identical add ran first. With `wait: false` a held
 * lock is refused at once with `add_in_progress`. The key is never a time, so no clock edge lets two
 * identical adds run side by side.
 */
export async function withAddLock<T>(key: { userId: string; udid: string; pool: number }, options: { wait: boolean }, work: (waited: boolean, lock: HeldLock) => Promise<T>): Promise<T> {
  const lockKey = addLockKey(key);
  const owner = randomUUID();
  const started = Date.now();
  let waited = false;
  // Lock expiry is wall-clock time on purpose: it guards real concurrency, not the domain's (injectable) clock.
  let attempt: LockAttempt;
  while (!(attempt = await tryLock(lockKey, owner, Math.floor(Date.now() / 1000), LOCK_TTL_SECONDS)).held) {
    waited = true;
    if (!options.wait || Date.now() - started > MAX_WAIT_MS) throw new DomainError('add_failed', 'add_in_progress');
    await sleep(WAIT_STEP_MS + Math.random() * WAIT_STEP_MS);
  }
  let released = false;
  const lock: HeldLock = { recentKid: attempt.recentKid, contended: waited || attempt.recent, part: (kid, nowSeconds) => unlockPart(lockKey, owner, kid, nowSeconds), released: () => (released = true) };
  try {
    return await work(waited, lock);
  } finally {
    if (!released) await unlock(lockKey, owner);
  }
}
