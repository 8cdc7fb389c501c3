/**
 * The revocation sweep: asks Apple whether each active account's distribution certificate
 * still exists. When it is gone, the account is revoked and its issued certificates become `revoked` — which
 * opens the warranty's free re-issue. Certificates of accounts past their membership expiry become `expired`.
 * Pending reservations of a revoked account are failed and refunded by the reservation worker.
 */
import { AppleApiError, CertificateNotFoundError } from '../../apple/asc-errors';
import { getAccount, listAllAccounts, markAccountRevoked } from '../../db/repositories/account-repository';
import { changeDeviceZt, deviceZtParts } from '../../db/repositories/issued-device-repository';
import { expiryNoticePart, listAccountDevices } from '../../db/repositories/device-notice-repository';
import { transactWrite } from '../../db/transactions';
import { deviceExpiringPart, deviceRevokedPart, tenantSettingsCache } from '../events/device-events';
import type { TenantSettings } from '../../records/tenant';
import { logger } from '../../logger';
import { freeSlots } from '../../observability/metrics';
import { DEVICE_CLASSES, type Account } from '../../records/account';
import { ascClientFor } from './account-access';
import { raiseAlert, settleAlerts } from './account-alerts';

export interface SweepReport {
  checked: number;
  revokedAccounts: string[];
  revokedDevices: number;
  expiredDevices: number;
  /** Certificates told (`device.expiring`) that their account's membership ends soon. */
  expiringNotices: number;
  /** Accounts whose API key Apple refused: now `failing`, their owner told. */
  failingAccounts: string[];
  /** Alerts raised on accounts (each also an `account.alert` event to a private account's owner). */
  alerts: number;
  errors: number;
}

type SettingsOf = (tenantId: string) => Promise<TenantSettings>;

/** Each certificate's status change goes with its `device.revoked` event, in one transaction. */
async function revokeDevices(accountId: string, now: number, settingsOf: SettingsOf): Promise<number> {
  let moved = 0;
  for (const device of await listAccountDevices(accountId, 'normal')) {
    if ((await transactWrite([...deviceZtParts({ kid: device.kid, userId: device.userId }, 'revoked', 'normal'), deviceRevokedPart(device, await settingsOf(device.tenantId), now)])).ok) moved++;
  }
  return moved;
}

/**
 * `device.expiring` for the usable certificates of an account whose membership ends within the tenant's notice
 * period, once per certificate and expiry: only accounts that are due are read, and of them only certificates
 * not yet told.
 */
async function announceExpiry(account: Account, now: number, settingsOf: SettingsOf): Promise<number> {
  const days = (await settingsOf(account.tenantId)).expiryNoticeDays;
  if (!(account.expiresAt > now && account.expiresAt - now <= days * 86_400)) return 0;
  let told = 0;
  for (const device of await listAccountDevices(account.accountId, 'normal', { unannouncedExpiry: account.expiresAt })) {
    if ((await transactWrite([expiryNoticePart(device.kid, account.expiresAt), deviceExpiringPart(device, account.expiresAt, now)])).ok) told++;
  }
  return told;
}

async function moveDevices(accountId: string, to: 'expired'): Promise<number> {
  let moved = 0;
  for (const device of await listAccountDevices(accountId, 'normal')) {
    if (await changeDeviceZt(device, to, 'normal')) moved++;
  }
  return moved;
}

/** What Apple says of the account's certificate: there, gone (revoked), or nothing, since it refuses the key. */
async function certificateState(account: Account): Promise<'present' | 'gone' | 'key_rejected'> {
  const client = await ascClientFor(account);
  try {
    await client.getCertificate(account.certificateId);
    return 'present';
  } catch (error) {
    if (error instanceof CertificateNotFoundError) return 'gone';
    if (error instanceof AppleApiError && error.kind === 'unauthorized') return 'key_rejected';
    throw error;
  }
}

async function sweepAccount(account: Account, now: number, report: SweepReport, settingsOf: SettingsOf): Promise<void> {
  // A retired account sells nothing and its owner asked for no more news of it; its certificates stay as they are.
  if (account.status === 'retired') return;
  if (account.status === 'revoked') {
    // A sweep that stopped half-way left some devices normal: finish the job.
    report.revokedDevices += await revokeDevices(account.accountId, now, settingsOf);
    return;
  }
  report.checked++;
  const state = await certificateState(account);
  if (state === 'key_rejected') {
    if (account.status === 'active' && (await raiseAlert(account, 'key_rejected', { from: 'active', to: 'failing' }))) {
      report.failingAccounts.push(account.accountId);
      report.alerts++;
      logger.warn('Apple refuses the account’s API key: it stops selling until its key is replaced', { accountId: account.accountId });
    }
    return;
  }
  if (state === 'gone') {
    await markAccountRevoked(account.accountId, now);
    if (await raiseAlert(account, 'certificate_revoked')) report.alerts++;
    report.revokedAccounts.push(account.accountId);
    report.revokedDevices += await revokeDevices(account.accountId, now, settingsOf);
    logger.info('Account certificate revoked by Apple', { accountId: account.accountId });
    return;
  }
  if (account.expiresAt > 0 && account.expiresAt <= now) {
    report.expiredDevices += await moveDevices(account.accountId, 'expired');
    return;
  }
  report.expiringNotices += await announceExpiry(account, now, settingsOf);
  report.alerts += (await settleAlerts(account, now)).length;
  // An account still selling reports its free slots once a sweep (hourly): the alarm watches the lowest.
  for (const deviceClass of DEVICE_CLASSES) freeSlots(account.accountId, deviceClass, account.free[deviceClass]);
}

/** Every account, or only `accountId` (the operator's `account revoke`); no account is started after `budgetMs`. */
export async function runRevocationSweep(now: number, options: { accountId?: string; budgetMs?: number } = {}): Promise<SweepReport> {
  const stopAt = Date.now() + (options.budgetMs ?? 4 * 60_000);
  const report: SweepReport = { checked: 0, revokedAccounts: [], revokedDevices: 0, expiredDevices: 0, expiringNotices: 0, failingAccounts: [], alerts: 0, errors: 0 };
  const settingsOf = tenantSettingsCache();
  const accounts = options.accountId ? [await getAccount(options.accountId)].filter((a): a is Account => a !== undefined) : await listAllAccounts();
  for (const account of accounts) {
    if (Date.now() > stopAt) break;
    try {
      await sweepAccount(account, now, report, settingsOf);
    } catch (error) {
      report.errors++;
      logger.warn('Could not check an account; next sweep retries', { accountId: account.accountId, error: error as Error });
    }
  }
  return report;
}
