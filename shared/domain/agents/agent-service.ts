/**
 * Agents: users a reseller (or an agent of theirs) signs up under themselves, to a depth of three levels below
 * a reseller of the operator. An agent is a user like any other — its own token (shown once), balance, ledger,
 * devices, sources and codes — with an upline: the parent sets the prices it pays (never below the parent's
 * own), tops up its balance from the parent's, and suspends it. A parent reads its own agents (one level down):
 * their balances, devices and ledgers, never their tokens or their customers' certificates. An agent id that is
 * not the caller's own agent — the caller's parent, a sibling, another tenant's, an unknown one — answers
 * `agent_not_found`, the same for all (agent-access.ts). Top-ups: agent-topup.ts.
 */
import { createUser as putUser, listAgentsOf, updateAgent as storeAgentChange, withLowBalance } from '../../db/repositories/user-repository';
import { agentOf, caller, notFound } from './agent-access';
import { readChainSnapshot } from '../../db/repositories/agent-chain-repository';
import { putPrice } from '../../db/repositories/price-repository';
import { randomId } from '../../ids';
import { ACCOUNT_MODES, type AccountMode } from '../../records/account';
import type { Tenant } from '../../records/tenant';
import { levelOf, MAX_AGENT_LEVEL, type TokenOwner, type User } from '../../records/user';
import { DomainError } from '../errors';
import { agentScope, PRICED_CLASSES, priceItem, type PricedClass } from '../pricing/prices';
import { tiersForMode } from '../pricing/warranty';
import { generateToken, hashToken } from '../users/tokens';
import { bandsProblem, type PriceBand } from '../../records/price-band';
import { chainIds, chainPrices, chainScopes } from './agent-prices';
import { forgetBrand } from './storefront-brand';

export interface AgentPriceSetting {
  mode: AccountMode;
  warranty: number;
  device_type: PricedClass;
  /** Cents. */
  price: number;
  /** Volume bands: a lower price from the N-th add of the month (records/price-band.ts). */
  bands?: PriceBand[] | undefined;
}

interface PricedItem {
  mode: AccountMode;
  warranty: number;
  device_type: PricedClass;
  item: string;
}

const PRICE_LIST: PricedItem[] = ACCOUNT_MODES.flatMap((mode) => tiersForMode(mode).flatMap((warranty) => PRICED_CLASSES.map((device_type) => ({ mode, warranty, device_type, item: priceItem(mode, warranty, device_type) }))));

/** An agent as its parent sees it: never its token, never its upline above the parent. */
export function agentView(agent: User) {
  const lowBalance = agent.lowBalance ?? 0;
  return {
    agent_id: agent.userId,
    name: agent.name,
    contact: agent.contact,
    level: levelOf(agent),
    suspended: agent.suspended,
    balance: agent.balance,
    // The parent's threshold for the agent, and whether the balance is below it now.
    low_balance: lowBalance,
    balance_low: lowBalance > 0 && agent.balance < lowBalance,
  };
}

/** What `agent` pays per item now, and what its parent pays (the floor of its price). */
export async function priceTable(agent: User, items: readonly PricedItem[] = PRICE_LIST) {
  const ids = chainIds(agent);
  const snapshot = await readChainSnapshot({ userIds: [], priceScopes: chainScopes(agent.tenantId, agent), priceItems: items.map((p) => p.item) });
  return items.map(({ mode, warranty, device_type, item }) => {
    const prices = chainPrices(snapshot.prices, agent.tenantId, ids, item);
    // The agent's bands as its parent set them (each applies at least at the parent's price before bands).
    const bands = snapshot.prices.has(`${agentScope(agent.userId)}|${item}`) ? (snapshot.bands.get(`${agentScope(agent.userId)}|${item}`) ?? []) : [];
    return { mode, warranty, device_type, price: prices[prices.length - 1]!, cost: prices[prices.length - 2]!, bands };
  });
}

/** Refuses the first setting below the parent's own price; checked before any is written, so all are set or none. */
async function checkPrices(agent: User, settings: readonly AgentPriceSetting[]): Promise<void> {
  if (settings.length === 0) return;
  const table = await priceTable(agent, settings.map((s) => ({ ...s, item: priceItem(s.mode, s.warranty, s.device_type) })));
  settings.forEach((setting, i) => {
    const cost = table[i]!.cost;
    const at = { mode: setting.mode, warranty: setting.warranty, device_type: setting.device_type };
    const bands = setting.bands ?? [];
    const problem = bandsProblem(setting.price, bands);
    if (problem) {
      const band = bands[problem.index]!;
      throw new DomainError('conflict', problem.problem === 'order' ? 'agent_band_order' : 'agent_band_not_lower', {
        params: { from: String(band.from), price: (band.price / 100).toFixed(2) },
        data: { ...at, band: problem.index, from: band.from, price: band.price },
      });
    }
    // The lowest price set is the last band's (or the price itself): none may be below what the parent pays.
    const lowest = bands.length > 0 ? bands[bands.length - 1]!.price : setting.price;
    if (lowest >= cost) return;
    throw new DomainError('conflict', 'agent_price_below_cost', {
      params: { price: (lowest / 100).toFixed(2), cost: (cost / 100).toFixed(2) },
      data: { ...at, price: lowest, cost, ...(bands.length > 0 ? { band: bands.length - 1 } : {}) },
    });
  });
}

async function writePrices(agent: User, settings: readonly AgentPriceSetting[]): Promise<void> {
  await Promise.all(settings.map((s) => putPrice(agentScope(agent.userId), priceItem(s.mode, s.warranty, s.device_type), s.price, s.bands)));
}

export function requireActive(parent: User): void {
  if (parent.suspended) throw new DomainError('conflict', 'agent_account_suspended');
}

export async function createAgent(
  owner: TokenOwner,
  tenant: Tenant,
  input: { name: string; contact: string; prices: readonly AgentPriceSetting[]; lowBalance?: number | undefined },
  now: number,
): Promise<{ agent: ReturnType<typeof agentView> & { prices: Awaited<ReturnType<typeof priceTable>> }; token: string }> {
  const parent = await caller(owner, tenant);
  requireActive(parent);
  if (levelOf(parent) >= MAX_AGENT_LEVEL) throw new DomainError('conflict', 'agent_depth_exceeded', { data: { level: levelOf(parent) } });
  const token = generateToken();
  const upline = [...parent.upline, parent.userId];
  const draft: User = { userId: randomId('u_'), tenantId: tenant.tenantId, name: input.name, balance: 0, ledgerSeq: 0, tokenHash: hashToken(token), tokenExpiresAt: undefined, upline, suspended: false, contact: input.contact };
  // Prices are checked before the agent exists, so a refused price creates nothing.
  await checkPrices(draft, input.prices);
  if (!(await putUser({ userId: draft.userId, tenantId: draft.tenantId, name: draft.name, balance: 0, tokenHash: draft.tokenHash, createdAt: now, agent: { upline, contact: input.contact } }))) {
    // Suspended (or removed) between the read and the write.
    throw new DomainError('conflict', 'agent_account_suspended');
  }
  await writePrices(draft, input.prices);
  if (input.lowBalance !== undefined) {
    await storeAgentChange(draft.userId, parent.userId, { lowBalance: input.lowBalance });
    draft.lowBalance = input.lowBalance;
  }
  return { agent: { ...agentView(draft), prices: await priceTable(draft) }, token };
}

export async function listAgents(owner: TokenOwner, tenant: Tenant) {
  const parent = await caller(owner, tenant);
  return { items: (await withLowBalance((await listAgentsOf(parent.userId)).filter((a) => a.tenantId === parent.tenantId))).map(agentView) };
}

export async function showAgent(owner: TokenOwner, tenant: Tenant, agentId: string) {
  const agent = await agentOf(await caller(owner, tenant), agentId);
  return { ...agentView(agent), prices: await priceTable(agent) };
}

export async function changeAgent(
  owner: TokenOwner,
  tenant: Tenant,
  agentId: string,
  change: { name?: string | undefined; contact?: string | undefined; suspended?: boolean | undefined; prices?: readonly AgentPriceSetting[] | undefined; lowBalance?: number | undefined },
) {
  const parent = await caller(owner, tenant);
  const agent = await agentOf(parent, agentId);
  await checkPrices(agent, change.prices ?? []);
  if (!(await storeAgentChange(agentId, parent.userId, change))) throw notFound();
  // Its pages show a suspension (and its name, where it set no shop name) at once in this container.
  forgetBrand(agentId);
  await writePrices(agent, change.prices ?? []);
  return showAgent(owner, tenant, agentId);
}


