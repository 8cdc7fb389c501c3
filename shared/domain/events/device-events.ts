/**
 * The events of the revocation sweep: `device.revoked` for every certificate of an account Apple revoked
 * (with the end of its free re-issue window) and `device.expiring` ahead of a membership's end. Each goes in
 * the same transaction as the device write that records it.
 */
import { getTenant } from '../../db/repositories/tenant-repository';
import type { AccountDevice } from '../../db/repositories/device-notice-repository';
import type { TransactionPart } from '../../db/transactions';
import { warrantyWindowSeconds } from '../pricing/warranty';
import { builtInDefaultTenant, type TenantSettings } from '../../records/tenant';
import { eventPart } from './outbox';

/** Tenant settings read once per sweep, not once per device. */
export function tenantSettingsCache(): (tenantId: string) => Promise<TenantSettings> {
  const seen = new Map<string, Promise<TenantSettings>>();
  return (tenantId) => {
    let found = seen.get(tenantId);
    if (!found) {
      found = getTenant(tenantId).then((t) => (t ?? builtInDefaultTenant()).settings);
      seen.set(tenantId, found);
    }
    return found;
  };
}

function deviceData(device: AccountDevice) {
  return { kid: device.kid, id: device.id, udid: device.udid, pool: device.pool, warranty: device.shtype };
}

/** `reissue_until`: the last second a re-add of the UDID is a free re-issue; 0 when the tier has no window. */
export function deviceRevokedPart(device: AccountDevice, settings: TenantSettings, now: number): TransactionPart {
  const window = warrantyWindowSeconds(settings, device.shtype);
  const reissueUntil = window > 0 && device.warrantyFrom + window > now ? device.warrantyFrom + window : 0;
  return eventPart('device.revoked', { tenantId: device.tenantId, userId: device.userId }, { ...deviceData(device), revoked_at: now, reissue_until: reissueUntil });
}

export function deviceExpiringPart(device: AccountDevice, expiresAt: number, now: number): TransactionPart {
  const daysLeft = Math.max(0, Math.ceil((expiresAt - now) / 86_400));
  return eventPart('device.expiring', { tenantId: device.tenantId, userId: device.userId }, { ...deviceData(device), expires_at: expiresAt, days_left: daysLeft });
}
