/**
 * What an add reads by key once it holds its lock, in one BatchGetItem: the marker of the last add of this
 * UDID (strongly consistent), the user (strongly consistent: the balance to check) and the price rows of the
 * requested (mode, tier, class) for the tenant and the user. One round trip instead of three.
 */
import { batchGetAll } from '../batch';
import { tableName } from '../table-names';
import { recentAddKey, recentAddKid } from './add-lock-repository';
import { userFromItem } from './user-repository';
import type { User } from '../../records/user';

export interface AddSnapshot {
  recentKid: string | undefined;
  user: User | undefined;
  /** Price rows (cents) by scope, for the one item asked for. */
  prices: Map<string, number>;
}

export async function readAddSnapshot(input: { lockKey: string; userId: string; priceScopes: readonly string[]; priceItem: string }): Promise<AddSnapshot> {
  const locks = tableName('addLocks');
  const users = tableName('users');
  const prices = tableName('prices');
  const found = await batchGetAll({
    [locks]: { Keys: [recentAddKey(input.lockKey)], ConsistentRead: true },
    [users]: { Keys: [{ user_id: input.userId }], ConsistentRead: true },
    [prices]: { Keys: input.priceScopes.map((scope) => ({ scope, item: input.priceItem })) },
  });
  const userItem = found[users]?.[0];
  return {
    recentKid: recentAddKid(found[locks]?.[0]),
    user: userItem ? userFromItem(userItem) : undefined,
    prices: new Map((found[prices] ?? []).map((row) => [String(row.scope), Number(row.cents)])),
  };
}
