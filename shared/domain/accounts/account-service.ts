/**
 * Adding Apple accounts (operator side).
 *
 * Exports: `addAccount` (seals the secrets and prepares the customer `.p12` under the tenant's password)
 * and, re-exported from `account-access.ts` (the request side), `accountSecrets` and `ascClientFor`.
 */
import { putAccount } from '../../db/repositories/account-repository';
import { getUser } from '../../db/repositories/user-repository';
import { seal } from '../../secrets/envelope-encryption';
import { RuleError } from '../errors';
import { randomId } from '../../ids';
import { requireTenant } from '../tenants/tenant-service';
import { WARRANTY_TIERS, tiersForMode } from '../pricing/warranty';
import { APPLE_DEVICES_PER_CLASS, type Account, type AccountSecrets } from '../../records/account';
import { sealCustomerP12s } from './customer-p12';

export { accountSecrets, ascClientFor } from './account-access';

/** An account to store: the team's identity as `Account` holds it, its secrets in the clear, and its placement. */
export type NewAccountInput = Pick<Account, 'pool' | 'mode' | 'expiresAt' | 'simulated' | 'teamId' | 'baseUrl' | 'issuerId' | 'keyId' | 'certificateId' | 'bundleIdId'> & {
  tenantId?: string | undefined;
  userId?: string | undefined;
  /** Given when the caller needed the id before storing (a connection cleans up by it); made here otherwise. */
  accountId?: string | undefined;
  weight?: number | undefined;
  tiers?: number[] | undefined;
  slotsPerClass?: number | undefined;
  /** Connected by the owner with an API key (`connect-account.ts`). */
  connected?: boolean | undefined;
  certificateExpiresAt?: number | undefined;
  secrets: AccountSecrets;
};

/** Stores an account; a private account belongs to the user's tenant, a public one to `tenantId`. */
export async function addAccount(input: NewAccountInput, now: number): Promise<Account> {
  let tenantId: string;
  let ownerUserId = '';
  if (input.pool === 'private') {
    if (!input.userId) throw new RuleError('private_account_without_user', 'a private account needs a user');
    const user = await getUser(input.userId);
    if (!user) throw new RuleError('user_not_found', `unknown user ${input.userId}`);
    if (input.tenantId && input.tenantId !== user.tenantId) throw new RuleError('user_outside_tenant', `user ${user.userId} belongs to tenant ${user.tenantId}, not ${input.tenantId}`);
    tenantId = user.tenantId;
    ownerUserId = user.userId;
  } else {
    if (input.userId) throw new RuleError('public_account_with_user', 'a public account belongs to a tenant, not a user');
    tenantId = (await requireTenant(input.tenantId ?? 'default')).tenantId;
  }
  const tenant = await requireTenant(tenantId);
  const allowed: number[] = tiersForMode(input.mode);
  const tiers = input.tiers ?? allowed;
  const refused = tiers.filter((t) => !allowed.includes(t));
  if (refused.length) throw new RuleError('tiers_not_offered', `a ${input.mode} account cannot offer tier(s) ${refused.join(', ')} (allowed: ${allowed.join(', ')}; tiers are ${WARRANTY_TIERS.join(', ')})`);
  const slots = input.slotsPerClass ?? APPLE_DEVICES_PER_CLASS;
  const accountId = input.accountId ?? randomId('acc_');
  const account: Account = {
    accountId,
    pool: input.pool,
    tenantId,
    ownerUserId,
    mode: input.mode,
    weight: input.weight ?? 100,
    tiers,
    free: { iphone: slots, ipad: slots, mac: slots },
    expiresAt: input.expiresAt,
    status: 'active',
    paused: false,
    connected: input.connected ?? false,
    slotLimit: slots,
    certificateExpiresAt: input.certificateExpiresAt ?? 0,
    alerts: [],
    simulated: input.simulated,
    teamId: input.teamId,
    baseUrl: input.baseUrl,
    issuerId: input.issuerId,
    keyId: input.keyId,
    certificateId: input.certificateId,
    bundleIdId: input.bundleIdId,
    secrets: await seal(input.secrets),
    customerP12: await sealCustomerP12s(accountId, input.secrets, [tenant.settings.p12Password]),
    createdAt: now,
  };
  await putAccount(account);
  return account;
}
