/**
 * What the request path and the scheduled jobs do with an account's secrets: open them, build an App Store
 * Connect client, and open the customer `.p12` prepared for a password. No PKCS#12 code: that runs on the
 * operator side (`customer-p12.ts`).
 */
import { createHash } from 'node:crypto';
import { AscClient } from '../../apple/asc-client';
import { open } from '../../secrets/envelope-encryption';
import type { Account, AccountSecrets } from '../../records/account';

export function accountSecrets(account: Account): Promise<AccountSecrets> {
  return open<AccountSecrets>(account.secrets);
}

/** A client for the account's team; `timeoutMs`/`maxAttempts` keep a request-path call inside the Lambda's time. */
export async function ascClientFor(account: Account, options: { timeoutMs?: number; maxAttempts?: number } = {}): Promise<AscClient> {
  const { privateKeyPem } = await accountSecrets(account);
  return new AscClient({ baseUrl: account.baseUrl, issuerId: account.issuerId, keyId: account.keyId, privateKeyPem }, options);
}

/** The key of a customer `.p12` copy: a hash, so the account item does not spell out the tenant's password. */
export function p12PasswordKey(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('hex');
}

/** The account's customer `.p12` (base64) under `password`, or undefined when none was prepared for it. */
export async function customerP12For(account: Account, password: string): Promise<string | undefined> {
  const sealed = account.customerP12[p12PasswordKey(password)];
  return sealed ? open<string>(sealed) : undefined;
}
