/**
 * What an add costs: the tenant's price for (mode, tier, device class), or the user's
 * personal price where that is lower. A tenant that set no price uses the defaults below.
 *
 * Exports: `PricedClass`, `priceItem`, `DEFAULT_PRICES`, `priceFor`, `priceScopes`, `effectivePrice`, `setPrice`.
 */
import { getPriceRows, putPrice } from '../../db/repositories/price-repository';
import type { AccountMode } from '../../records/account';
import { tiersForMode, type WarrantyTier } from './warranty';
import { priceAtOrdinal, type PriceBand } from '../../records/price-band';

/** The classes a client can add (`deviceType`). */
export const PRICED_CLASSES = ['iphone', 'ipad'] as const;
export type PricedClass = (typeof PRICED_CLASSES)[number];

export function priceItem(mode: AccountMode, tier: number, deviceClass: PricedClass): string {
  return `${mode}#${tier}#${deviceClass}`;
}

/** Cents. Review (a wait of up to 72 h) is cheaper than instant; the tier sets the rest. */
const INSTANT: Record<WarrantyTier, number> = { 0: 1000, 1: 1500, 2: 2500, 3: 3500, 4: 800, 6: 4500 };
const REVIEW: Partial<Record<WarrantyTier, number>> = { 0: 600, 1: 900, 2: 1600, 3: 2400 };

export const DEFAULT_PRICES: Readonly<Record<string, number>> = Object.fromEntries(
  (['instant', 'review'] as const).flatMap((mode) =>
    tiersForMode(mode).flatMap((tier) =>
      PRICED_CLASSES.map((deviceClass) => [priceItem(mode, tier, deviceClass), (mode === 'instant' ? INSTANT : REVIEW)[tier] ?? 0]),
    ),
  ),
);

export const tenantScope = (tenantId: string) => `tenant#${tenantId}`;
export const userScope = (userId: string) => `user#${userId}`;
/** An agent's prices, set by its parent (shared/domain/agents). */
export const agentScope = (agentId: string) => `agent#${agentId}`;

/** The price the user pays: one read for the tenant's and the user's rows together. */
export async function priceFor(input: { tenantId: string; userId: string; mode: AccountMode; tier: number; deviceClass: PricedClass }): Promise<number> {
  const item = priceItem(input.mode, input.tier, input.deviceClass);
  return effectivePrice(await getPriceRows(priceScopes(input), item), input, item);
}

/** The scopes whose rows decide a user's price: the tenant's and the user's own. */
export const priceScopes = (who: { tenantId: string; userId: string }) => [tenantScope(who.tenantId), userScope(who.userId)];

/** The price from already-read rows (by scope) of `item`: the tenant's, or the personal one where lower. */
export function effectivePrice(rows: ReadonlyMap<string, number>, input: { tenantId: string; userId: string }, item: string): number {
  const tenantPrice = rows.get(tenantScope(input.tenantId)) ?? DEFAULT_PRICES[item] ?? 0;
  const personal = rows.get(userScope(input.userId));
  return personal !== undefined && personal < tenantPrice ? personal : tenantPrice;
}

/**
 * The price of the month's `ordinal`-th add from already-read rows and their volume bands (by scope): each row's
 * band for that add, then the tenant's or the personal one where lower, as `effectivePrice` does. `banded`: whether
 * the price depends on the ordinal at all (a row of this item has bands), so whether the month's count must be
 * exactly the one read when the add is paid.
 */
export function bandedPrice(rows: ReadonlyMap<string, number>, bands: ReadonlyMap<string, readonly PriceBand[]>, input: { tenantId: string; userId: string }, item: string, ordinal: number): { price: number; banded: boolean } {
  const tenant = tenantScope(input.tenantId);
  const user = userScope(input.userId);
  const tenantPrice = priceAtOrdinal(rows.get(tenant) ?? DEFAULT_PRICES[item] ?? 0, rows.has(tenant) ? bands.get(tenant) : undefined, ordinal);
  const personalRow = rows.get(user);
  const personal = personalRow === undefined ? undefined : priceAtOrdinal(personalRow, bands.get(user), ordinal);
  return { price: personal !== undefined && personal < tenantPrice ? personal : tenantPrice, banded: (rows.has(tenant) && bands.has(tenant)) || (personalRow !== undefined && bands.has(user)) };
}

export function setPrice(scope: string, item: string, cents: number, bands?: readonly PriceBand[]): Promise<void> {
  return putPrice(scope, item, cents, bands);
}
