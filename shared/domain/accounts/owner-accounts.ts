/**
 * A reseller's own Apple accounts (their private pool), as they see and keep them: the list with slots and
 * dates, a new API key, the membership's date, pausing, retiring (renewing the certificate: certificate-renewal.ts). An account is only ever its owner's: any
 * other caller — another reseller, an agent — is answered as if it did not exist.
 */
import { changeAccount, getAccount, listOwnedAccounts } from '../../db/repositories/account-repository';
import { ownerAccountView, type Account } from '../../records/account';
import type { Actor } from '../../records/source';
import { seal } from '../../secrets/envelope-encryption';
import { DomainError } from '../errors';
import { accountSecrets } from './account-access';
import { appleRefusal } from './apple-refusals';
import { clientForKey, type ApiKeyInput } from './connect-account';
import { checkMembershipDate } from './membership-date';

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

/** Sets (or, with 0, forgets) when the account's membership renews: the date its certificates show as `ytime`. */
export async function setMembershipDate(actor: Actor, accountId: string, renewsAt: number, now: number) {
  const account = await ownedAccount(actor, accountId);
  refuseRetired(account);
  const expiresAt = checkMembershipDate(renewsAt, now);
  return ownerAccountView(await apply(account, { expiresAt }, { inStatus: ['active', 'failing', 'revoked'] }));
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
