/**
 * What a customer sees of their device on a tenant: every certificate of the proven UDID, whoever of the
 * tenant's resellers owns it, with its state and whether the free re-issue is open — never the owner, the
 * owner's token, the account or the `.p12` itself.
 */
import { listCertificatesOfUdid, type UdidCertificate } from '../../db/repositories/self-service-repository';
import { freeReissueTier, NOT_AN_ADD } from '../add-device/free-reissue';
import type { AccountMode } from '../../records/account';
import type { DeviceType, DeviceZt } from '../../records/device';
import type { Tenant } from '../../records/tenant';
import type { ProvenDevice } from './proof';

export interface CustomerCertificate {
  kid: string;
  state: Exclude<DeviceZt, 'failed'>;
  mode: AccountMode;
  /** Warranty tier. */
  warranty: number;
  addedAt: number;
  deviceName: string;
  deviceClass: DeviceType;
  /** The hosting account's membership expiry, epoch seconds; 0 when unknown. */
  membershipExpiresAt: number;
  /** Its owner (the reseller) disabled it: shown as disabled, neither downloadable nor re-issued here. */
  disabled: boolean;
  /** The certificate and profile can be downloaded (issued, not revoked or expired, not disabled). */
  downloadable: boolean;
  /** Revoked inside its warranty window and not replaced since: the customer may re-issue it free. */
  reissue: boolean;
}

/** A certificate's mode: a review add leaves its reservation on the certificate. */
export const modeOf = (certificate: Pick<UdidCertificate, 'reservation_id'>): AccountMode => (certificate.reservation_id ? 'review' : 'instant');

/**
 * The certificate a free re-issue would replace, per owner and pool: the newest one that was an add (the add
 * route's rule), when it is revoked inside its window. The same rule the add applies, so what the page offers
 * is what the add does.
 */
export function reissuable(certificates: readonly UdidCertificate[], tenant: Tenant, now: number): Set<string> {
  const newest = new Map<string, UdidCertificate>();
  for (const c of certificates) {
    const group = `${c.user_id}#${c.pool}`;
    if (!newest.has(group) && !NOT_AN_ADD.has(c.zt)) newest.set(group, c);
  }
  return new Set([...newest.values()].filter((c) => freeReissueTier(c, modeOf(c), tenant, now)).map((c) => c.kid));
}

export async function certificatesOfDevice(device: ProvenDevice, tenant: Tenant, now: number): Promise<CustomerCertificate[]> {
  const all = await listCertificatesOfUdid(tenant.tenantId, device.udid);
  const open = reissuable(all, tenant, now);
  // An uncharged `failed` row is the service's bookkeeping of a registration, nothing the customer bought.
  return all
    .filter((c) => c.zt !== 'failed')
    .map((c) => ({
      kid: c.kid,
      state: c.zt as CustomerCertificate['state'],
      mode: modeOf(c),
      warranty: c.shtype,
      addedAt: c.addtime,
      deviceName: c.pname,
      deviceClass: c.type,
      membershipExpiresAt: c.ytime,
      disabled: c.enabled === false,
      downloadable: c.zt === 'normal' && c.enabled !== false,
      reissue: open.has(c.kid) && c.enabled !== false,
    }));
}
