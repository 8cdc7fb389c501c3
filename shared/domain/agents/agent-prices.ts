/**
 * What each level of an agent chain pays for an add. The tenant's reseller of the operator (level 0) pays its
 * price as every user does (the tenant's, or its personal one where lower); each agent pays the price its
 * parent set for it (`agent#<id>` rows), never less than its parent pays: a price set below the parent's cost
 * (the operator raised the parent's since) counts as the parent's cost, and an item the parent set no price for
 * costs what the parent pays. So every level above an adding agent earns its margin (≥ 0), and only the agent's
 * own balance has to cover the add.
 */
import { readChainSnapshot } from '../../db/repositories/agent-chain-repository';
import type { UplineShare } from '../../records/reservation';
import type { User } from '../../records/user';
import type { LedgerHead } from '../../records/ledger-entry';
import { DomainError } from '../errors';
import { agentScope, effectivePrice, tenantScope, userScope } from '../pricing/prices';

/** The ids of a chain from the reseller of the operator down to `user` (level = index). */
export const chainIds = (user: Pick<User, 'userId' | 'upline'>) => [...user.upline, user.userId];

/** The scopes whose rows decide the prices of the chain ending at `user`. */
export function chainScopes(tenantId: string, user: Pick<User, 'userId' | 'upline'>): string[] {
  const [top, ...agents] = chainIds(user);
  return [tenantScope(tenantId), userScope(top!), ...agents.map(agentScope)];
}

/** Each level's price of `item`, level 0 first, from rows keyed `<scope>|<item>`. */
export function chainPrices(rows: ReadonlyMap<string, number>, tenantId: string, ids: readonly string[], item: string): number[] {
  const [top, ...agents] = ids;
  // Level 0 pays as every user does: the one rule of `effectivePrice`, over this item's rows by scope.
  const levelZeroRows = new Map<string, number>();
  for (const scope of [tenantScope(tenantId), userScope(top!)]) {
    const cents = rows.get(`${scope}|${item}`);
    if (cents !== undefined) levelZeroRows.set(scope, cents);
  }
  const prices = [effectivePrice(levelZeroRows, { tenantId, userId: top! }, item)];
  for (const agentId of agents) {
    const cost = prices[prices.length - 1]!;
    const set = rows.get(`${agentScope(agentId)}|${item}`);
    prices.push(set !== undefined && set > cost ? set : cost);
  }
  return prices;
}

/** The levels above the adding agent, parent first: what each was credited (the price below it) and paid. */
export function uplineShares(ids: readonly string[], prices: readonly number[]): UplineShare[] {
  const shares: UplineShare[] = [];
  for (let level = ids.length - 2; level >= 0; level--) shares.push({ userId: ids[level]!, level, credit: prices[level + 1]!, cost: prices[level]! });
  return shares;
}

export interface AgentQuote {
  /** What the agent pays. */
  price: number;
  upline: UplineShare[];
  /** The ledger heads of the levels above, as read with the quote (the certificate's write tries them first). */
  heads: LedgerHead[];
}

/**
 * What an agent's add of `item` costs it and pays each level above it. Refused (nothing charged anywhere)
 * when the agent or a reseller above it is suspended or gone.
 */
export async function quoteAgentAdd(user: User, item: string): Promise<AgentQuote> {
  const ids = chainIds(user);
  const snapshot = await readChainSnapshot({ userIds: user.upline, priceScopes: chainScopes(user.tenantId, user), priceItems: [item] });
  if (user.suspended || user.upline.some((id) => { const u = snapshot.users.get(id); return !u || u.suspended; })) {
    throw new DomainError('add_failed', 'agent_suspended');
  }
  const prices = chainPrices(snapshot.prices, user.tenantId, ids, item);
  const heads = user.upline.map((id) => { const u = snapshot.users.get(id)!; return { userId: u.userId, tenantId: u.tenantId, balance: u.balance, seq: u.ledgerSeq }; });
  return { price: prices[prices.length - 1]!, upline: uplineShares(ids, prices), heads };
}
