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
import { agentScope, bandedPrice, effectivePrice, tenantScope, userScope } from '../pricing/prices';
import { addMonth, priceAtOrdinal, type PriceBand } from '../../records/price-band';

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

/**
 * Each level's price of the month's add `ordinals[level]` of `item` (volume bands, records/price-band.ts), level 0
 * first. Level 0 pays as every user does (`bandedPrice`); an agent pays its parent's band price for that add, or
 * the price its parent set for it — at the agent's own band — but never less than its parent's price before any
 * band (`chainPrices`). So no level's band eats into a margin above it: each level pays at most its price before
 * bands, and the level below it at least that. `banded[level]`: whether that level's price depends on its own
 * count (the count is then written on the condition that it is still the one read).
 */
export function chainPricesAt(rows: ChainRows, tenantId: string, ids: readonly string[], item: string, ordinals: readonly number[]): { prices: number[]; banded: boolean[] } {
  const base = chainPrices(rows.prices, tenantId, ids, item);
  const [top, ...agents] = ids;
  const levelZeroRows = new Map<string, number>();
  const levelZeroBands = new Map<string, readonly PriceBand[]>();
  for (const scope of [tenantScope(tenantId), userScope(top!)]) {
    const cents = rows.prices.get(`${scope}|${item}`);
    if (cents !== undefined) levelZeroRows.set(scope, cents);
    const bands = rows.bands.get(`${scope}|${item}`);
    if (bands) levelZeroBands.set(scope, bands);
  }
  const zero = bandedPrice(levelZeroRows, levelZeroBands, { tenantId, userId: top! }, item, ordinals[0] ?? 1);
  const prices = [zero.price];
  const banded = [zero.banded];
  agents.forEach((agentId, i) => {
    const level = i + 1;
    const key = `${agentScope(agentId)}|${item}`;
    const set = rows.prices.get(key);
    if (set === undefined) {
      // What the parent pays for this add: its own band, so the parent's count decides it (and is conditioned).
      prices.push(prices[level - 1]!);
      banded.push(false);
      return;
    }
    const bands = rows.bands.get(key);
    prices.push(Math.max(priceAtOrdinal(set, bands, ordinals[level] ?? 1), base[level - 1]!));
    banded.push(bands !== undefined);
  });
  return { prices, banded };
}

/** The levels above the adding agent, parent first: what each was credited (the price below it) and paid. */
export function uplineShares(ids: readonly string[], prices: readonly number[]): UplineShare[] {
  const shares: UplineShare[] = [];
  for (let level = ids.length - 2; level >= 0; level--) shares.push({ userId: ids[level]!, level, credit: prices[level + 1]!, cost: prices[level]! });
  return shares;
}

/** The price rows of a chain by `<scope>|<item>`, with their bands. */
export interface ChainRows {
  prices: ReadonlyMap<string, number>;
  bands: ReadonlyMap<string, readonly PriceBand[]>;
}

/**
 * The month's adds an add counts in (add-count-repository.ts): its own user's and every level's above it. `read`
 * is the count its price was decided on where the price depends on it; undefined where it does not.
 */
export interface AddCounting {
  month: string;
  users: Array<{ userId: string; read: number | undefined }>;
}

/** An add's price and shares from the chain's rows and the month's counts read (level 0 first). */
export function priceChain(rows: ChainRows, tenantId: string, ids: readonly string[], item: string, month: string, counts: ReadonlyMap<string, number>): { price: number; upline: UplineShare[]; counting: AddCounting } {
  const read = ids.map((id) => counts.get(id) ?? 0);
  const { prices, banded } = chainPricesAt(rows, tenantId, ids, item, read.map((n) => n + 1));
  // A level without a row of its own pays its parent's band, which its parent's count decides: only the counts of
  // levels with bands decide a price, and only those are conditioned.
  return {
    price: prices[prices.length - 1]!,
    upline: uplineShares(ids, prices),
    counting: { month, users: ids.map((userId, level) => ({ userId, read: banded[level] ? read[level] : undefined })) },
  };
}

export interface AgentQuote {
  /** What the agent pays. */
  price: number;
  upline: UplineShare[];
  /** The ledger heads of the levels above, as read with the quote (the certificate's write tries them first). */
  heads: LedgerHead[];
  /** The month's counts the add moves, and those its prices were decided on. */
  counting: AddCounting;
  /** The same quote for other counts (another add of the chain got there first). */
  requote(counts: ReadonlyMap<string, number>): { price: number; upline: UplineShare[]; counting: AddCounting };
}

/**
 * What an agent's add of `item` costs it and pays each level above it, at each level's band for the month of
 * `now`. Refused (nothing charged anywhere) when the agent or a reseller above it is suspended or gone; the
 * payment's transaction checks that again (payment.ts), so a suspension landing after this read still stops it.
 */
export async function quoteAgentAdd(user: User, item: string, now: number): Promise<AgentQuote> {
  const ids = chainIds(user);
  const month = addMonth(now);
  const snapshot = await readChainSnapshot({ userIds: user.upline, priceScopes: chainScopes(user.tenantId, user), priceItems: [item], countUsers: ids, month });
  if (user.suspended || user.upline.some((id) => { const u = snapshot.users.get(id); return !u || u.suspended; })) {
    throw new DomainError('add_failed', 'agent_suspended');
  }
  const requote = (counts: ReadonlyMap<string, number>) => priceChain(snapshot, user.tenantId, ids, item, month, counts);
  const heads = user.upline.map((id) => { const u = snapshot.users.get(id)!; return { userId: u.userId, tenantId: u.tenantId, balance: u.balance, seq: u.ledgerSeq }; });
  return { ...requote(snapshot.monthAdds), heads, requote };
}
