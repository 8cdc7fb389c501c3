/**
 * Warranty tiers: which modes sell them and how long a revoked certificate is re-issued free.
 */
import type { AccountMode } from '../../records/account';
import type { TenantSettings } from '../../records/tenant';

export const WARRANTY_TIERS = [0, 1, 2, 3, 4, 6] as const;
export type WarrantyTier = (typeof WARRANTY_TIERS)[number];

/** Budget (4) and premium (6) are sold on instant accounts only. */
const INSTANT_ONLY: readonly number[] = [4, 6];

export function isWarrantyTier(value: number): value is WarrantyTier {
  return (WARRANTY_TIERS as readonly number[]).includes(value);
}

export function tiersForMode(mode: AccountMode): WarrantyTier[] {
  return WARRANTY_TIERS.filter((tier) => mode === 'instant' || !INSTANT_ONLY.includes(tier));
}

export function tierAllowedIn(mode: AccountMode, tier: number): boolean {
  return mode === 'instant' || !INSTANT_ONLY.includes(tier);
}

/** The free re-issue window of a tier in seconds (0: none), from the tenant's settings. */
export function warrantyWindowSeconds(settings: TenantSettings, tier: number): number {
  const days = settings.warrantyWindowDays[String(tier)] ?? 0;
  return Math.max(0, days) * 24 * 60 * 60;
}
