/**
 * What a reseller reads about their own money: the balance with the prices they pay, and the ledger a page at
 * a time, newest first. A token identifies its user on every site, but their money lives on their own
 * tenant: on another tenant's site both answer as an invalid token, as an add does.
 */
import { readBalanceSnapshot } from '../../db/repositories/balance-repository';
import { readChainSnapshot } from '../../db/repositories/agent-chain-repository';
import { chainIds, chainPrices, chainScopes } from '../agents/agent-prices';
import { queryLedger } from '../../db/repositories/ledger-repository';
import { ACCOUNT_MODES } from '../../records/account';
import { DomainError } from '../errors';
import { DEFAULT_PRICES, PRICED_CLASSES, priceItem, tenantScope, userScope } from '../pricing/prices';
import { tiersForMode } from '../pricing/warranty';
import type { Tenant } from '../../records/tenant';
import type { TokenOwner } from '../../records/user';
import { entryView, type LedgerKind } from '../../records/ledger-entry';

function requireHomeTenant(owner: TokenOwner, tenant: Tenant): void {
  if (owner.tenantId !== tenant.tenantId) throw new DomainError('token_invalid', 'token_invalid');
}

const PRICE_LIST = ACCOUNT_MODES.flatMap((mode) => tiersForMode(mode).flatMap((tier) => PRICED_CLASSES.map((deviceClass) => ({ mode, tier, deviceClass, item: priceItem(mode, tier, deviceClass) }))));

export async function readBalance(owner: TokenOwner, tenant: Tenant) {
  requireHomeTenant(owner, tenant);
  const tenantRows = tenantScope(tenant.tenantId);
  const userRows = userScope(owner.userId);
  const snapshot = await readBalanceSnapshot({ userId: owner.userId, priceScopes: [tenantRows, userRows], priceItems: PRICE_LIST.map((p) => p.item) });
  // Deleted since the token was checked: the token no longer names anyone.
  if (snapshot.balance === undefined) throw new DomainError('token_invalid', 'token_invalid');
  // An agent pays what its parent set (never below the parent's own price): shown, and nothing else of the parent's.
  if (snapshot.upline.length > 0) {
    const chain = { userId: owner.userId, upline: snapshot.upline };
    const rows = await readChainSnapshot({ userIds: [], priceScopes: chainScopes(tenant.tenantId, chain), priceItems: PRICE_LIST.map((p) => p.item) });
    const prices = PRICE_LIST.map(({ mode, tier, deviceClass, item }) => ({ mode, warranty: tier, device_type: deviceClass, price: chainPrices(rows.prices, tenant.tenantId, chainIds(chain), item).at(-1)!, personal: false }));
    return { balance: snapshot.balance, currency: tenant.settings.currency, prices };
  }
  const prices = PRICE_LIST.map(({ mode, tier, deviceClass, item }) => {
    const tenantPrice = snapshot.prices.get(`${tenantRows}|${item}`) ?? DEFAULT_PRICES[item] ?? 0;
    const personal = snapshot.prices.get(`${userRows}|${item}`);
    const mine = personal !== undefined && personal < tenantPrice;
    return { mode, warranty: tier, device_type: deviceClass, price: mine ? personal : tenantPrice, personal: mine };
  });
  return { balance: snapshot.balance, currency: tenant.settings.currency, prices };
}

/** Entries read per request at most: a filter that matches little makes short pages, never long requests. */
const READ_BUDGET = 1_000;

export async function readLedgerPage(
  owner: TokenOwner,
  tenant: Tenant,
  request: { kinds: readonly LedgerKind[] | undefined; from: number | undefined; to: number | undefined; beforeSeq: number | undefined; limit: number },
) {
  requireHomeTenant(owner, tenant);
  const page = await queryLedger({ userId: owner.userId, ...request, readBudget: READ_BUDGET });
  return { items: page.entries.map(entryView), nextSeq: page.more ? page.lastSeq : undefined };
}
