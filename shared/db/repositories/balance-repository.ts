/**
 * What the balance view reads, in one BatchGetItem: the user's balance (strongly consistent) and every price
 * row of the tenant and the user for the items asked for. A balance moves only with its ledger entry
 * (shared/domain/ledger); this file only reads.
 */
import { batchGetAll } from '../batch';
import { tableName } from '../table-names';

export interface BalanceSnapshot {
  balance: number | undefined;
  /** An agent's resellers above it (empty for a reseller of the operator). */
  upline: string[];
  /** Cents by `<scope>|<item>`. */
  prices: Map<string, number>;
}

export async function readBalanceSnapshot(input: { userId: string; priceScopes: readonly string[]; priceItems: readonly string[] }): Promise<BalanceSnapshot> {
  const users = tableName('users');
  const prices = tableName('prices');
  const found = await batchGetAll({
    [users]: { Keys: [{ user_id: input.userId }], ConsistentRead: true, ProjectionExpression: 'user_id, balance, upline' },
    [prices]: { Keys: input.priceScopes.flatMap((scope) => input.priceItems.map((item) => ({ scope, item }))) },
  });
  const user = found[users]?.[0];
  return {
    balance: user ? Number(user.balance ?? 0) : undefined,
    upline: Array.isArray(user?.upline) ? user.upline.map(String) : [],
    prices: new Map((found[prices] ?? []).map((row) => [`${String(row.scope)}|${String(row.item)}`, Number(row.cents)])),
  };
}
