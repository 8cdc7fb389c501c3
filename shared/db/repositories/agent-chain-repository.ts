/**
 * What pricing an agent's add or balance reads about the resellers above it: their user items (strongly
 * consistent: suspension and the ledger head) and the price rows of the scopes that decide each level's price.
 * Users, prices (with their volume bands) and the chain's adds of the month are read in parallel, the prices in
 * groups of 100 keys (a balance view asks for every item).
 */
import { batchGet } from '../batch';
import { tableName } from '../table-names';
import { userFromItem } from './user-repository';
import type { User } from '../../records/user';
import type { PriceBand } from '../../records/price-band';
import { bandsByKey } from './price-repository';
import { readAddCounts } from './add-count-repository';

export interface ChainSnapshot {
  /** By user id; a user deleted since is absent. */
  users: Map<string, User>;
  /** Cents by `<scope>|<item>`. */
  prices: Map<string, number>;
  /** Volume bands by `<scope>|<item>`, for the rows that have any. */
  bands: Map<string, PriceBand[]>;
  /** Adds of the month by user id, for `countUsers` (0 when none). */
  monthAdds: Map<string, number>;
}

export async function readChainSnapshot(input: { userIds: readonly string[]; priceScopes: readonly string[]; priceItems: readonly string[]; countUsers?: readonly string[]; month?: string }): Promise<ChainSnapshot> {
  const [users, prices, monthAdds] = await Promise.all([
    input.userIds.length > 0 ? batchGet(tableName('users'), input.userIds.map((user_id) => ({ user_id }))) : Promise.resolve([]),
    batchGet(
      tableName('prices'),
      input.priceScopes.flatMap((scope) => input.priceItems.map((item) => ({ scope, item }))),
    ),
    input.countUsers && input.month ? readAddCounts(input.countUsers, input.month) : Promise.resolve(new Map<string, number>()),
  ]);
  return {
    users: new Map(users.map((item) => [String(item.user_id), userFromItem(item)])),
    prices: new Map(prices.map((row) => [`${String(row.scope)}|${String(row.item)}`, Number(row.cents)])),
    bands: bandsByKey(prices, (row) => `${String(row.scope)}|${String(row.item)}`),
    monthAdds,
  };
}
