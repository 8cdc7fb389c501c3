/**
 * Renewing an account's distribution certificate, the request's part: the new certificate is made at once
 * (so Apple's refusals — a key it no longer accepts, the team's certificate cap — are answered to the owner),
 * and the renewal is left on the account for the reservation worker's pass (`renewal-job.ts`), which gives the
 * devices their new profiles: an account with a hundred devices would not fit in API Gateway's 29 seconds.
 *
 * The renewal is stored before Apple is asked, with the new private key sealed: only one runs per account,
 * and a certificate made by a request that died before storing it is found by that key and revoked by the
 * pass, never left using one of the team's few certificates.
 */
import { randomUUID } from 'node:crypto';
import { beginRenewal, getAccount, undoRenewal, updateRenewal } from '../../db/repositories/account-repository';
import { listAccountDeviceKids } from '../../db/repositories/issued-device-repository';
import { logger } from '../../logger';
import { ownerAccountView, type Account, type AccountRenewal } from '../../records/account';
import type { Actor } from '../../records/source';
import { seal } from '../../secrets/envelope-encryption';
import { DomainError } from '../errors';
import { requireTenant } from '../tenants/tenant-service';
import { accountSecrets, ascClientFor, p12PasswordKey } from './account-access';
import { appleRefusal } from './apple-refusals';
import { newIdentity } from './connect-account';
import { sealCustomerP12s } from './customer-p12';
import { ownedAccount } from './owner-accounts';
import { switchAccount } from './renewal-job';
import { identityP12, newSigningRequest } from './signing-identity';

/** The states a renewal may start from: a working account, or one whose certificate Apple revoked. */
const RENEWABLE: readonly Account['status'][] = ['active', 'revoked'];

function refuseRunning(renewal: AccountRenewal): never {
  throw new DomainError('conflict', 'apple_account_renewing', { params: { done: renewal.done, total: renewal.total }, data: { renewal_id: renewal.renewalId, done: renewal.done, total: renewal.total } });
}

function refuseState(status: Account['status']): never {
  throw new DomainError('conflict', 'apple_account_state', { params: { state: status }, data: { state: status } });
}

/** Starts a renewal and makes its certificate; answers the account with the renewal running (its devices to come). */
export async function startRenewal(actor: Actor, accountId: string, now: number) {
  const account = await ownedAccount(actor, accountId);
  if (account.renewal?.state === 'running') refuseRunning(account.renewal);
  if (!RENEWABLE.includes(account.status)) refuseState(account.status);

  const signing = newSigningRequest(`App Source ${actor.userId}`);
  const [request, devices] = await Promise.all([signing, listAccountDeviceKids(account.accountId, 'normal')]);
  const renewal: AccountRenewal = { renewalId: `ren_${randomUUID()}`, state: 'running', startedAt: now, total: devices.length, done: 0, skipped: 0, signingKey: await seal(request.privateKeyPem) };
  if (!(await beginRenewal(account.accountId, renewal, RENEWABLE))) {
    const current = (await getAccount(account.accountId))!;
    if (current.renewal?.state === 'running') refuseRunning(current.renewal);
    refuseState(current.status);
  }

  const client = await ascClientFor(account, { timeoutMs: 8_000, maxAttempts: 2 });
  let certificateId: string | undefined;
  try {
    const { certificate, privateKeyPem } = await newIdentity(client, actor.userId, signing);
    certificateId = certificate.id;
    const tenant = await requireTenant(account.tenantId);
    const identity = identityP12(privateKeyPem, certificate.certificateContent!);
    const customerP12 = await sealCustomerP12s(account.accountId, { ...(await accountSecrets(account)), ...identity }, [tenant.settings.p12Password]);
    const stored = await updateRenewal(account.accountId, renewal.renewalId, {
      certificateId: certificate.id,
      certificateExpiresAt: Math.floor(Date.parse(certificate.expirationDate) / 1000),
      identity: await seal(identity),
      customerP12,
      deviceP12Key: p12PasswordKey(tenant.settings.p12Password),
    });
    if (!stored) throw new DomainError('conflict', 'apple_account_state', { params: { state: 'retired' }, data: { state: 'retired' } });
    // A revoked account's certificates are all revoked already (none left to keep valid): it sells again at once.
    if (account.status === 'revoked') {
      const current = (await getAccount(account.accountId))!;
      await switchAccount(current, current.renewal!, now);
    }
  } catch (error) {
    // Nothing of this renewal is kept: the certificate it made (if any) is revoked and the previous renewal put back.
    if (certificateId) {
      try {
        await client.revokeCertificate(certificateId);
      } catch (cleanup) {
        logger.error('A failed renewal left its new certificate at Apple', { accountId, certificateId, error: cleanup as Error });
      }
    }
    await undoRenewal(account.accountId, renewal.renewalId, account.renewal);
    throw appleRefusal(error);
  }
  return ownerAccountView((await getAccount(account.accountId))!);
}
