/**
 * A reseller's own Apple accounts (their private pool), as they see and keep them: the list with slots and
 * dates, a new API key, a renewed certificate, pausing, retiring. An account is only ever its owner's: any
 * other caller — another reseller, an agent — is answered as if it did not exist.
 */
import { changeAccount, getAccount, listOwnedAccounts } from '../../db/repositories/account-repository';
import { getDevice } from '../../db/repositories/device-repository';
import { listAccountDeviceKids, replaceDeviceSigning } from '../../db/repositories/issued-device-repository';
import { logger } from '../../logger';
import { ownerAccountView, type Account } from '../../records/account';
import type { Actor } from '../../records/source';
import { seal } from '../../secrets/envelope-encryption';
import { DomainError } from '../errors';
import { requireTenant } from '../tenants/tenant-service';
import { accountSecrets, ascClientFor, customerP12For } from './account-access';
import { appleRefusal } from './apple-refusals';
import { clientForKey, newIdentity, type ApiKeyInput } from './connect-account';
import { sealCustomerP12s } from './customer-p12';
import { identityP12 } from './signing-identity';

/** The caller's account, or the one refusal every other case gets (a "not found": 404 code 40001, code 100 on the device list). */
export async function ownedAccount(actor: Actor, accountId: string): Promise<Account> {
  const account = await getAccount(accountId);
  if (!account || account.pool !== 'private' || account.ownerUserId !== actor.userId || account.tenantId !== actor.tenantId) {
    throw new DomainError('device_not_found', 'apple_account_not_found');
  }
  return account;
}

export async function listOwnerAccounts(actor: Actor) {
  const accounts = (await listOwnedAccounts(actor.userId)).filter((a) => a.tenantId === actor.tenantId);
  return { accounts: accounts.map(ownerAccountView) };
}

function refuseRetired(account: Account): void {
  if (account.status === 'retired') throw new DomainError('conflict', 'apple_account_retired_already');
}

/** Applies a change the account's current state allows; a change that lost a race is answered with the state now. */
async function apply(account: Account, change: Parameters<typeof changeAccount>[1], when: Parameters<typeof changeAccount>[2]): Promise<Account> {
  if (!(await changeAccount(account.accountId, change, when))) {
    const now = await getAccount(account.accountId);
    throw new DomainError('conflict', 'apple_account_state', { params: { state: now?.status ?? 'retired' }, data: { state: now?.status ?? 'retired' } });
  }
  return (await getAccount(account.accountId))!;
}

/** A new API key for the account's team: checked against Apple (it must reach the account's bundle id) first. */
export async function rotateKey(actor: Actor, accountId: string, key: ApiKeyInput) {
  const account = await ownedAccount(actor, accountId);
  refuseRetired(account);
  try {
    await clientForKey(key, account.baseUrl).getBundleId(account.bundleIdId);
  } catch (error) {
    const refusal = appleRefusal(error);
    if (refusal instanceof DomainError && (error as { kind?: string }).kind === 'not_found') throw new DomainError('conflict', 'apple_key_other_team', { cause: error });
    throw refusal;
  }
  const secrets = await seal({ ...(await accountSecrets(account)), privateKeyPem: key.privateKeyPem });
  const changed = await apply(
    account,
    { issuerId: key.issuerId, keyId: key.keyId, secrets, status: account.status === 'failing' ? 'active' : account.status, alerts: account.alerts.filter((a) => a !== 'key_rejected') },
    { inStatus: [account.status] },
  );
  return ownerAccountView(changed);
}

const RENEW_CONCURRENCY = 4;

/**
 * A new distribution certificate for the account, and for every usable certificate on it a new profile made
 * with it and the new `.p12`: the devices stay registered, so no slot is spent. The previous certificate is
 * not revoked, so what customers installed with it keeps working until it expires. Nothing is stored before
 * every profile is made; a renewal that fails before that revokes the certificate it made.
 */
export async function renewCertificate(actor: Actor, accountId: string, now: number) {
  const account = await ownedAccount(actor, accountId);
  if (account.status !== 'active' && account.status !== 'revoked') throw new DomainError('conflict', 'apple_account_state', { params: { state: account.status }, data: { state: account.status } });
  const client = await ascClientFor(account, { timeoutMs: 8_000, maxAttempts: 2 });
  const { certificate, privateKeyPem } = await newIdentity(client, actor.userId);
  const tenant = await requireTenant(account.tenantId);
  try {
    const identity = { ...(await accountSecrets(account)), ...identityP12(privateKeyPem, certificate.certificateContent!) };
    const customerP12 = await sealCustomerP12s(account.accountId, identity, [tenant.settings.p12Password]);
    const renewed: Account = { ...account, certificateId: certificate.id, customerP12 };
    const p12 = (await customerP12For(renewed, tenant.settings.p12Password)) ?? '';
    const devices = (await Promise.all((await listAccountDeviceKids(account.accountId, 'normal')).map((kid) => getDevice(kid)))).filter((d) => d?.apple_device_id);
    const signings: { kid: string; mobileprovision: string }[] = [];
    for (let i = 0; i < devices.length; i += RENEW_CONCURRENCY) {
      const batch = devices.slice(i, i + RENEW_CONCURRENCY);
      signings.push(
        ...(await Promise.all(
          batch.map(async (device) => {
            const profile = await client.createAdHocProfile({ name: `${device!.udid} ${now}`, bundleIdId: account.bundleIdId, certificateIds: [certificate.id], deviceIds: [device!.apple_device_id] });
            return { kid: device!.kid, mobileprovision: profile.profileContent };
          }),
        )),
      );
    }
    const certificateExpiresAt = Math.floor(Date.parse(certificate.expirationDate) / 1000);
    const changed = await apply(
      account,
      { certificateId: certificate.id, certificateExpiresAt, secrets: await seal(identity), customerP12, status: 'active', alerts: account.alerts.filter((a) => a !== 'certificate_expiring' && a !== 'certificate_revoked') },
      { inStatus: ['active', 'revoked'], certificateId: account.certificateId },
    );
    let renewedDevices = 0;
    for (const signing of signings) if (await replaceDeviceSigning(signing.kid, account.accountId, { p12, mobileprovision: signing.mobileprovision })) renewedDevices++;
    return { account: ownerAccountView(changed), renewed_devices: renewedDevices };
  } catch (error) {
    try {
      await client.revokeCertificate(certificate.id);
    } catch (cleanup) {
      logger.error('A failed renewal left its new certificate at Apple', { accountId, certificateId: certificate.id, error: cleanup as Error });
    }
    throw appleRefusal(error);
  }
}

export async function setSelling(actor: Actor, accountId: string, selling: boolean) {
  const account = await ownedAccount(actor, accountId);
  refuseRetired(account);
  return ownerAccountView(await apply(account, { paused: !selling }, { inStatus: ['active', 'failing', 'revoked'] }));
}

/** Out of service for good: adds no longer use it; its certificates stay as they are until they expire. */
export async function retireAccount(actor: Actor, accountId: string) {
  const account = await ownedAccount(actor, accountId);
  refuseRetired(account);
  return ownerAccountView(await apply(account, { status: 'retired' }, { inStatus: ['active', 'failing', 'revoked'] }));
}
