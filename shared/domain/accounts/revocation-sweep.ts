/**
 * The revocation sweep: asks Apple whether each active account's distribution certificate
 * still exists. When it is gone, the account is revoked and its issued certificates become `revoked` — which
 * opens the warranty's free re-issue. Certificates of accounts past their membership expiry become `expired`.
 * Pending reservations of a revoked account are failed and refunded by the reservation worker.
 */
import { CertificateNotFoundError } from '../../apple/asc-errors';
import { getAccount, listAllAccounts, markAccountRevoked } from '../../db/repositories/account-repository';
import { changeDeviceZt, listAccountDeviceKids } from '../../db/repositories/issued-device-repository';
import { logger } from '../../logger';
import { freeSlots } from '../../observability/metrics';
import { DEVICE_CLASSES, type Account } from './account';
import { ascClientFor } from './account-access';

export interface SweepReport {
  checked: number;
  revokedAccounts: string[];
  revokedDevices: number;
  expiredDevices: number;
  errors: number;
}

async function moveDevices(accountId: string, to: 'revoked' | 'expired'): Promise<number> {
  let moved = 0;
  for (const kid of await listAccountDeviceKids(accountId, 'normal')) {
    if (await changeDeviceZt(kid, to, 'normal')) moved++;
  }
  return moved;
}

async function certificateGone(account: Account): Promise<boolean> {
  const client = await ascClientFor(account);
  try {
    await client.getCertificate(account.certificateId);
    return false;
  } catch (error) {
    if (error instanceof CertificateNotFoundError) return true;
    throw error;
  }
}

async function sweepAccount(account: Account, now: number, report: SweepReport): Promise<void> {
  if (account.status === 'revoked') {
    // A sweep that stopped half-way left some devices normal: finish the job.
    report.revokedDevices += await moveDevices(account.accountId, 'revoked');
    return;
  }
  report.checked++;
  if (await certificateGone(account)) {
    await markAccountRevoked(account.accountId, now);
    report.revokedAccounts.push(account.accountId);
    report.revokedDevices += await moveDevices(account.accountId, 'revoked');
    logger.info('Account certificate revoked by Apple', { accountId: account.accountId });
    return;
  }
  if (account.expiresAt > 0 && account.expiresAt <= now) {
    report.expiredDevices += await moveDevices(account.accountId, 'expired');
    return;
  }
  // An account still selling reports its free slots once a sweep (hourly): the alarm watches the lowest.
  for (const deviceClass of DEVICE_CLASSES) freeSlots(account.accountId, deviceClass, account.free[deviceClass]);
}

/** Every account, or only `accountId` (the operator's `account revoke`); no account is started after `budgetMs`. */
export async function runRevocationSweep(now: number, options: { accountId?: string; budgetMs?: number } = {}): Promise<SweepReport> {
  const stopAt = Date.now() + (options.budgetMs ?? 4 * 60_000);
  const report: SweepReport = { checked: 0, revokedAccounts: [], revokedDevices: 0, expiredDevices: 0, errors: 0 };
  const accounts = options.accountId ? [await getAccount(options.accountId)].filter((a): a is Account => a !== undefined) : await listAllAccounts();
  for (const account of accounts) {
    if (Date.now() > stopAt) break;
    try {
      await sweepAccount(account, now, report);
    } catch (error) {
      report.errors++;
      logger.warn('Could not check an account; next sweep retries', { accountId: account.accountId, error: error as Error });
    }
  }
  return report;
}
