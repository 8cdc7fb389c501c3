/**
 * The free re-issue rule, apart from the add so the customer's page can offer exactly what the add will do
 * without carrying the add's code.
 */
import type { AccountMode } from '../../records/account';
import type { Device } from '../../records/device';
import { tierAllowedIn, warrantyWindowSeconds } from '../pricing/warranty';
import type { Tenant } from '../../records/tenant';

/** Adds that delivered nothing (and charged nothing) do not start a force-add period. */
export const NOT_AN_ADD: ReadonlySet<string> = new Set(['failed', 'ineligible']);

/**
 * The tier of a free re-issue, when the newest certificate was revoked inside its paid add's window (and the
 * requested mode sells that tier: a premium certificate is re-issued on an instant account, not in review).
 */
export function freeReissueTier(newest: (Pick<Device, 'zt' | 'shtype' | 'addtime'> & { warranty_from?: number }) | undefined, mode: AccountMode, tenant: Pick<Tenant, 'settings'>, now: number): { tier: number; warrantyFrom: number } | undefined {
  if (!newest || newest.zt !== 'revoked' || !tierAllowedIn(mode, newest.shtype)) return undefined;
  const warrantyFrom = newest.warranty_from ?? newest.addtime;
  const window = warrantyWindowSeconds(tenant.settings, newest.shtype);
  return window > 0 && now < warrantyFrom + window ? { tier: newest.shtype, warrantyFrom } : undefined;
}

