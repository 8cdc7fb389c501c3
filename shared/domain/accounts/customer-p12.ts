/**
 * Operator side of the customer `.p12`: re-exports an account's identity under a tenant's p12 password and
 * stores it sealed on the account, when the account is added and when the tenant's password changes. The
 * add functions only open what is stored, so they carry no PKCS#12 code.
 */
import { exportP12 } from '../../apple/p12-export';
import { P12ReadError } from '../../apple/p12-reader';
import { listAllAccounts, setCustomerP12 } from '../../db/repositories/account-repository';
import { logger } from '../../logger';
import { seal, type SealedSecret } from '../../secrets/envelope-encryption';
import type { Account, AccountSecrets } from '../../records/account';
import { accountSecrets, p12PasswordKey } from './account-access';

/**
 * The identity re-exported under each password, sealed, by password key. An identity that cannot be opened
 * gets no copy (logged, without a secret): adds then pass the account by, as they would pass by any account
 * whose certificate cannot be delivered.
 */
export async function sealCustomerP12s(accountId: string, secrets: AccountSecrets, passwords: readonly string[]): Promise<Record<string, SealedSecret>> {
  const copies: Record<string, SealedSecret> = {};
  for (const password of new Set(passwords)) {
    try {
      copies[p12PasswordKey(password)] = await seal(exportP12(secrets, password));
    } catch (error) {
      if (!(error instanceof P12ReadError)) throw error;
      logger.error('The account’s stored .p12 cannot be re-exported; adds will pass this account by', { accountId, problem: error.message });
    }
  }
  return copies;
}

/**
 * Prepares the customer `.p12` of every account of the tenant under `passwords` (the new one first, then the
 * one running functions may still use until their cached tenant expires), dropping copies for any other
 * password. Returns how many accounts were updated.
 */
export async function prepareTenantCustomerP12s(tenantId: string, passwords: readonly string[]): Promise<number> {
  const accounts = (await listAllAccounts()).filter((a) => a.tenantId === tenantId);
  for (const account of accounts) await prepareAccount(account, passwords);
  return accounts.length;
}

async function prepareAccount(account: Account, passwords: readonly string[]): Promise<void> {
  const wanted = new Set(passwords.map(p12PasswordKey));
  const kept = Object.fromEntries(Object.entries(account.customerP12).filter(([key]) => wanted.has(key)));
  const missing = passwords.filter((password) => !Object.hasOwn(kept, p12PasswordKey(password)));
  const made = missing.length ? await sealCustomerP12s(account.accountId, await accountSecrets(account), missing) : {};
  await setCustomerP12(account.accountId, { ...kept, ...made });
}
