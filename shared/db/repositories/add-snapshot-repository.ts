/**
 * What an add reads by key once it holds its lock, in one BatchGetItem: the marker of the last add of this
 * UDID (strongly consistent), the user (strongly consistent: the balance to check) and the price rows of the
 * requested (mode, tier, class) for the tenant and the user, with their volume bands, and the user's adds of the
 * month (the count its band is decided on). One round trip instead of four.
 */
import { batchGetAll } from '../batch';
import { tableName } from '../table-names';
import { recentAddKey, recentAddKid } from './add-lock-repository';
import { userFromItem } from './user-repository';
import type { User } from '../../records/user';
import type { PriceBand } from '../../records/price-band';
import { bandsByKey } from './price-repository';
import { addCountKeys, countsFromItems } from './add-count-repository';

export interface AddSnapshot {
  recentKid: string | undefined;
  user: User | undefined;
  /** Price rows (cents) by scope, for the one item asked for. */
  prices: Map<string, number>;
  /** The volume bands of those rows that have any, by scope. */
  bands: Map<string, PriceBand[]>;
  /** The user's adds of `month` so far (add-count-repository.ts). */
  monthAdds: number;
}

export async function readAddSnapshot(input: { lockKey: string; userId: string; priceScopes: readonly string[]; priceItem: string; month: string }): Promise<AddSnapshot> {
  const locks = tableName('addLocks');
  const users = tableName('users');
  const prices = tableName('prices');
  const counters = tableName('counters');
  const found = await batchGetAll({
    [locks]: { Keys: [recentAddKey(input.lockKey)], ConsistentRead: true },
    [users]: { Keys: [{ user_id: input.userId }], ConsistentRead: true },
    [prices]: { Keys: input.priceScopes.map((scope) => ({ scope, item: input.priceItem })) },
    [counters]: { Keys: addCountKeys([input.userId], input.month), ConsistentRead: true },
  });
  const userItem = found[users]?.[0];
  return {
    recentKid: recentAddKid(found[locks]?.[0]),
    user: userItem ? userFromItem(userItem) : undefined,
    prices: new Map((found[prices] ?? []).map((row) => [String(row.scope), Number(row.cents)])),
    bands: bandsByKey(found[prices] ?? [], (row) => String(row.scope)),
    monthAdds: countsFromItems([input.userId], input.month, found[counters] ?? []).get(input.userId) ?? 0,
  };
}
