/**
 * What a customer does with a proven device: redeem a reseller's activation code, or take the free re-issue
 * of a revoked certificate. Both are the add route's add, for the reseller who owns the code or the
 * certificate — same lock, same payment hold, same slot rules, same events — so nothing here decides money.
 */
import { getUser } from '../../db/repositories/user-repository';
import { listCertificatesOfUdid } from '../../db/repositories/self-service-repository';
import { addDevice, type AddedCertificate } from '../add-device/add-device-service';
import type { AccountMode } from '../../records/account';
import { DomainError } from '../errors';
import { findCode } from '../pricing/activation-codes';
import type { Tenant } from '../../records/tenant';
import type { TokenOwner } from '../../records/user';
import { modeOf, reissuable } from './certificates';
import { countCustomerAttempt } from './customer-limits';
import { deviceClassOf, type ProvenDevice } from './proof';

/** `ready`: the certificate can be downloaded; `review`: Apple is reviewing the device. */
export type CustomerAddOutcome = 'ready' | 'review';

const outcome = (added: AddedCertificate): CustomerAddOutcome => (added.mobileprovision ? 'ready' : 'review');

async function owner(userId: string, tenantId: string): Promise<TokenOwner | undefined> {
  const user = await getUser(userId);
  return user && user.tenantId === tenantId ? { userId: user.userId, tenantId: user.tenantId, tokenExpiresAt: undefined } : undefined;
}

/**
 * Redeems `code` for the proven device: the add the code's owner would make with it (the code fixes mode and
 * tier; the public pool). `mode`, when the page names one, must be the code's (`code_mode_mismatch`).
 */
export async function redeemCode(device: ProvenDevice, tenant: Tenant, input: { code: string; mode: AccountMode | undefined }, now: number): Promise<CustomerAddOutcome> {
  await countCustomerAttempt(tenant.tenantId, device.udid, now);
  const code = await findCode(input.code);
  if (!code || code.tenantId !== tenant.tenantId) throw new DomainError('add_failed', 'code_invalid');
  if (code.usedAt !== undefined) throw new DomainError('add_failed', 'code_used');
  if (input.mode && input.mode !== code.mode) throw new DomainError('add_failed', 'code_mode_mismatch', { params: { mode: code.mode } });
  const reseller = await owner(code.createdFor, tenant.tenantId);
  if (!reseller) throw new DomainError('add_failed', 'code_invalid');
  const added = await addDevice(
    { tenant, user: reseller, now },
    { udid: device.udid, mode: code.mode, force: false, tier: undefined, pool: 0, deviceClass: deviceClassOf(device), beizhu: '', code: code.code },
  );
  return outcome(added);
}

/** The free re-issue of the proven device's revoked certificate `kid`, for its owner, at its tier. */
export async function reissueCertificate(device: ProvenDevice, tenant: Tenant, kid: string, now: number): Promise<CustomerAddOutcome> {
  const all = await listCertificatesOfUdid(tenant.tenantId, device.udid);
  const certificate = all.find((c) => c.kid === kid && c.zt !== 'failed');
  if (!certificate) throw new DomainError('device_not_found', 'certificate_not_found', { fields: ['kid'] });
  // What the page offers: revoked inside the window and still the newest of its owner and pool.
  if (!reissuable(all, tenant, now).has(kid)) throw new DomainError('add_failed', 'reissue_not_covered');
  await countCustomerAttempt(tenant.tenantId, device.udid, now);
  const reseller = await owner(certificate.user_id, tenant.tenantId);
  if (!reseller) throw new DomainError('device_not_found', 'certificate_not_found', { fields: ['kid'] });
  const added = await addDevice(
    { tenant, user: reseller, now },
    {
      udid: certificate.udid,
      mode: modeOf(certificate),
      force: false,
      tier: undefined,
      pool: certificate.pool,
      deviceClass: certificate.type === 'ipad' ? 'ipad' : 'iphone',
      beizhu: certificate.beizhu,
      code: undefined,
      // The add decides under its lock whether the re-issue is still free; if not it refuses, never charges.
      freeOnly: true,
    },
  );
  return outcome(added);
}
