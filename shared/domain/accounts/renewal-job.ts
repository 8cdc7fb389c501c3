/**
 * Renewing an account's certificate, the background part (run by the reservation worker's pass, every two
 * minutes deployed and every few seconds under `npm start`). For each usable certificate on the account it
 * makes a new ad hoc profile with the renewal's certificate for the same Apple device (no device is
 * registered, so no slot is spent, and nothing is charged) and writes it with the new `.p12`, the device's
 * mark and the renewal's progress in one transaction. Then the account moves to the new certificate, and a
 * last look catches a device an add wrote with the previous one meanwhile; the renewal ends with an
 * `account.renewal` event.
 *
 * Each step is idempotent and the state is on the items, so a pass that dies (or runs out of time, or finds
 * Apple down) leaves the rest to the next one: a device is renewed once per renewal (a profile made for it
 * by a pass that died before writing is made again, unused, never a slot). Until its own write, every device
 * keeps its previous profile and `.p12`, and the previous certificate is never revoked.
 */
import { AppleApiError } from '../../apple/asc-errors';
import type { AscClient } from '../../apple/asc-client';
import { finishRenewalPart, getAccount, listRenewingAccounts, renewalProgressPart, switchToRenewedCertificate, updateRenewal } from '../../db/repositories/account-repository';
import { listDevicesToRenew, renewedSigningPart, type DeviceToRenew } from '../../db/repositories/issued-device-repository';
import { transactWrite } from '../../db/transactions';
import { logger } from '../../logger';
import type { Account, AccountRenewal, AccountSecrets } from '../../records/account';
import { open, seal } from '../../secrets/envelope-encryption';
import { eventPart } from '../events/outbox';
import { accountSecrets, ascClientFor } from './account-access';
import { certificateForKey } from './certificate-key';

export interface RenewalReport {
  /** Renewals a pass worked on. */
  renewals: number;
  renewedDevices: number;
  /** Devices Apple made no new profile for: they keep the previous certificate until it expires. */
  skippedDevices: number;
  done: number;
  failed: number;
  errors: number;
}

/** Profiles asked of Apple at once, per account. */
const PROFILE_CONCURRENCY = 4;
/** A request that stored its renewal but not the certificate this long ago has died (it answers within 29 s). */
const CERTIFICATE_STEP_SECONDS = 120;
/** An add that read the account before the switch has written its device this long after (an add runs under 30 s). */
const ADD_SETTLE_SECONDS = 60;

type Outcome = 'renewed' | 'skipped' | 'later';

/** Apple's answers that say "not this device" rather than "not now": it keeps its signing, and the renewal goes on. */
function refusedForDevice(error: unknown): boolean {
  return error instanceof AppleApiError && !['unavailable', 'rate_limited', 'unauthorized', 'unexpected'].includes(error.kind);
}

async function renewDevice(account: Account, renewal: AccountRenewal, client: AscClient, p12: string, device: DeviceToRenew): Promise<Outcome> {
  let mobileprovision: string | undefined;
  if (device.appleDeviceId) {
    try {
      const profile = await client.createAdHocProfile({ name: `${device.udid} ${renewal.renewalId.slice(4, 12)}`, bundleIdId: account.bundleIdId, certificateIds: [renewal.certificateId!], deviceIds: [device.appleDeviceId] });
      // Apple leaves out a device it no longer has enabled: that profile would not install on it.
      if (profile.deviceIds.includes(device.appleDeviceId)) mobileprovision = profile.profileContent;
    } catch (error) {
      if (!refusedForDevice(error)) {
        logger.warn('Apple could not make a renewed profile now; the next pass tries again', { accountId: account.accountId, kid: device.kid, error: error as Error });
        return 'later';
      }
    }
  }
  const signing = mobileprovision ? { p12, mobileprovision } : undefined;
  const written = await transactWrite([renewedSigningPart(device.kid, account.accountId, renewal.renewalId, signing), renewalProgressPart(account.accountId, renewal.renewalId, !signing)]);
  // Not written: the certificate stopped being usable (revoked, deleted) or another pass finished it first.
  if (!written.ok) return 'skipped';
  if (!signing) logger.warn('Apple made no renewed profile for a device: it keeps its previous certificate', { accountId: account.accountId, kid: device.kid });
  return signing ? 'renewed' : 'skipped';
}

function renewalEventData(account: Account, renewal: AccountRenewal, state: 'done' | 'failed', error?: string) {
  return {
    account_id: account.accountId,
    team_id: account.teamId,
    renewal_id: renewal.renewalId,
    state,
    renewed_devices: renewal.done - renewal.skipped,
    skipped_devices: renewal.skipped,
    certificate_id: state === 'done' ? renewal.certificateId : account.certificateId,
    certificate_expires_at: state === 'done' ? renewal.certificateExpiresAt : account.certificateExpiresAt,
    ...(error ? { error } : {}),
  };
}

/** Ends the renewal and tells the owner (`account.renewal`), in one transaction. */
async function finish(account: Account, renewal: AccountRenewal, state: 'done' | 'failed', now: number, report: RenewalReport, error?: string): Promise<void> {
  const parts = [finishRenewalPart(account.accountId, renewal.renewalId, state, now, error)];
  if (account.pool === 'private') parts.push(eventPart('account.renewal', { tenantId: account.tenantId, userId: account.ownerUserId }, renewalEventData(account, renewal, state, error)));
  if ((await transactWrite(parts)).ok) report[state]++;
}

/**
 * A renewal whose request died between storing it and storing its certificate: the certificate Apple may
 * have made for its key is revoked (it signs nothing yet), and the renewal fails; the owner may start another.
 */
async function abandon(account: Account, renewal: AccountRenewal, now: number, report: RenewalReport): Promise<void> {
  const client = await ascClientFor(account);
  const made = renewal.signingKey ? await certificateForKey(client, await open<string>(renewal.signingKey)) : undefined;
  if (made) await client.revokeCertificate(made.id);
  await finish(account, renewal, 'failed', now, report, 'apple_unavailable');
}

/** The account moves to the new certificate: its identity with the account's current API key, its customer `.p12`. */
export async function switchAccount(account: Account, renewal: AccountRenewal, now: number): Promise<boolean> {
  const identity = await open<Pick<AccountSecrets, 'p12Base64' | 'p12Password'>>(renewal.identity!);
  const { privateKeyPem } = await accountSecrets(account);
  return switchToRenewedCertificate(
    account.accountId,
    renewal.renewalId,
    {
      certificateId: renewal.certificateId!,
      certificateExpiresAt: renewal.certificateExpiresAt ?? 0,
      secrets: await seal({ privateKeyPem, ...identity }),
      customerP12: renewal.customerP12 ?? {},
      alerts: account.alerts.filter((a) => a !== 'certificate_expiring' && a !== 'certificate_revoked'),
      status: 'active',
    },
    { certificateId: account.certificateId, certificateExpiresAt: account.certificateExpiresAt },
    now,
    ['active', 'revoked'],
  );
}

async function advance(account: Account, now: number, stopAt: number, report: RenewalReport): Promise<void> {
  const renewal = account.renewal!;
  if (!renewal.certificateId) {
    if (now - renewal.startedAt >= CERTIFICATE_STEP_SECONDS) await abandon(account, renewal, now, report);
    return;
  }
  if (account.status === 'retired') {
    // Its owner took it out of service: no new profiles; the devices keep what they have.
    await finish(account, renewal, 'failed', now, report, 'apple_account_retired_already');
    return;
  }
  report.renewals++;
  const waiting = await listDevicesToRenew(account.accountId, renewal.renewalId);
  const done = (await getAccount(account.accountId))?.renewal?.done ?? renewal.done;
  if (waiting.length || done !== renewal.total) await updateRenewal(account.accountId, renewal.renewalId, { total: done + waiting.length });
  if (waiting.length) {
    const client = await ascClientFor(account);
    const p12 = await open<string>(renewal.customerP12![renewal.deviceP12Key!]!);
    let left = waiting.length;
    for (let i = 0; i < waiting.length; i += PROFILE_CONCURRENCY) {
      if (Date.now() > stopAt) return;
      const outcomes = await Promise.all(waiting.slice(i, i + PROFILE_CONCURRENCY).map((device) => renewDevice(account, renewal, client, p12, device)));
      report.renewedDevices += outcomes.filter((o) => o === 'renewed').length;
      report.skippedDevices += outcomes.filter((o) => o === 'skipped').length;
      left -= outcomes.filter((o) => o !== 'later').length;
    }
    // Apple could not make some of them now: the next pass goes on from there.
    if (left > 0) return;
  }
  const current = (await getAccount(account.accountId))!;
  if (!current.renewal?.switchedAt) {
    if (!(await switchAccount(current, renewal, now)) && (await getAccount(account.accountId))?.status === 'failing') {
      logger.warn('A renewal waits for its account’s API key to be replaced', { accountId: account.accountId });
    }
    return;
  }
  // Devices written meanwhile with the previous certificate were picked up above (with a few signed with the
  // new one already, harmlessly). Once no add can still be writing one, the renewal is done.
  if (now >= current.renewal.switchedAt + ADD_SETTLE_SECONDS) await finish(current, current.renewal, 'done', now, report);
}

/** Works on every running renewal; no account or batch of devices is started after `budgetMs`. */
export async function runAccountRenewals(now: number, options: { budgetMs?: number } = {}): Promise<RenewalReport> {
  const stopAt = Date.now() + (options.budgetMs ?? 60_000);
  const report: RenewalReport = { renewals: 0, renewedDevices: 0, skippedDevices: 0, done: 0, failed: 0, errors: 0 };
  for (const account of await listRenewingAccounts()) {
    if (Date.now() > stopAt) break;
    try {
      await advance(account, now, stopAt, report);
    } catch (error) {
      report.errors++;
      logger.warn('Could not advance a certificate renewal; the next pass goes on', { accountId: account.accountId, error: error as Error });
    }
  }
  return report;
}
