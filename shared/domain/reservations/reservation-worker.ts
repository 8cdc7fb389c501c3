/**
 * The reservation worker: for each due pending reservation, ask Apple about the device. ENABLED
 * → create the ad hoc profile, and the device row becomes `normal` with it. PROCESSING → look again later
 * (backing off). Refused by Apple, the account's certificate gone, or 30 days passed → `failed`, with the
 * charge refunded in the same transaction.
 *
 * The device row's `.p12` is not touched here: the add already stored (and returned) the account's certificate
 * re-exported under the tenant's p12 password, so the finished reservation hands out the same bytes.
 */
import { AppleApiError } from '../../apple/asc-errors';
import { getAccount } from '../../db/repositories/account-repository';
import { deviceIssuedParts, deviceZtParts } from '../../db/repositories/issued-device-repository';
import { listStaleHolds } from '../../db/repositories/payment-hold-repository';
import { refundCharge, releaseHold, uplineOf, writeWithUpline } from '../ledger/charges';
import { agentAddedParts } from '../events/agent-events';
import { transactWrite } from '../../db/transactions';
import { listDueReservations, postponeReservation, reservationFinishPart } from '../../db/repositories/reservation-repository';
import { logger } from '../../logger';
import { addRefunded, reservationAge } from '../../observability/metrics';
import { ascClientFor } from '../accounts/account-access';
import type { DeviceZt } from '../../records/device';
import { settleDeadAddSlots, settlePossibleRegistrations } from '../add-device/registration-slot';
import { appleDeviceName } from '../add-device/apple-device-name';
import { nextCheckDelaySeconds, RESERVATION_MAX_AGE_SECONDS, type Reservation } from '../../records/reservation';
import { profileCertificateIds } from '../../records/account';
import { reservationFailedPart, reservationIssuedPart } from '../events/add-events';

export interface WorkerReport {
  checked: number;
  issued: number;
  failed: number;
  waiting: number;
  errors: number;
  /** Holds released because the add that took them never settled them (its function died): paid ones refunded. */
  releasedHolds: number;
  /** Possible registrations settled: kept as failed rows, or their slots given back. */
  settledPossible: number;
}

/** Far longer than any add can run (the function times out before 30 s): a hold this old has no add left. */
const STALE_HOLD_SECONDS = 300;
const STALE_HOLDS_PER_PASS = 100;

/** Refunds what crashed adds held: charged ⇒ delivered or refunded, even when the add itself died. */
async function releaseStaleHolds(now: number): Promise<number> {
  let released = 0;
  for (const hold of await listStaleHolds(now - STALE_HOLD_SECONDS, STALE_HOLDS_PER_PASS)) {
    if (!(await settleDeadAddSlots(hold, now))) continue;
    if (await releaseHold(hold, now, 'stale_hold')) {
      released++;
      if (hold.charge.kind === 'free') continue;
      addRefunded('stale_hold');
      logger.warn('Refunded a payment hold left by an add that did not finish', { holdId: hold.holdId, userId: hold.userId });
    }
  }
  return released;
}

/**
 * Finishes the reservation as failed, marks the device and gives the charge back with its `review_refund`
 * ledger entry, all or nothing.
 */
export async function failReservation(reservation: Reservation, zt: DeviceZt, reason: string, now: number): Promise<boolean> {
  // The reservation's, the device's and the payment's repositories each hand out their part of one write.
  const ok = await refundCharge({
    userId: reservation.userId,
    charge: reservation.charge,
    own: [reservationFinishPart(reservation.reservationId, 'failed', now, reason), ...deviceZtParts({ kid: reservation.kid, userId: reservation.userId }, zt, 'processing'), reservationFailedPart(reservation, zt, reason)],
    ref: { reservation_id: reservation.reservationId, kid: reservation.kid, udid: reservation.udid, mode: 'review', reason },
    at: now,
  });
  if (ok) {
    logger.info('Reservation failed and refunded', { reservationId: reservation.reservationId, reason });
    if (reservation.charge.kind !== 'free') addRefunded(reason);
  }
  return ok;
}

type Outcome = 'issued' | 'failed' | 'waiting';

async function postpone(reservation: Reservation, now: number): Promise<Outcome> {
  await postponeReservation(reservation.reservationId, now + nextCheckDelaySeconds(reservation.attempts + 1));
  return 'waiting';
}

async function advance(reservation: Reservation, now: number): Promise<Outcome> {
  const account = await getAccount(reservation.accountId);
  if (!account || account.status === 'revoked') return (await failReservation(reservation, 'failed', 'account_revoked', now)) ? 'failed' : 'waiting';
  if (now - reservation.createdAt > RESERVATION_MAX_AGE_SECONDS) return (await failReservation(reservation, 'failed', 'timed_out', now)) ? 'failed' : 'waiting';

  const client = await ascClientFor(account);
  let status: string;
  try {
    status = (await client.getDevice(reservation.appleDeviceId)).status;
  } catch (error) {
    if (error instanceof AppleApiError && error.kind === 'not_found') return (await failReservation(reservation, 'ineligible', 'device_gone', now)) ? 'failed' : 'waiting';
    throw error;
  }
  if (status === 'PROCESSING') return postpone(reservation, now);
  if (status !== 'ENABLED') return (await failReservation(reservation, 'ineligible', `apple_status_${status.toLowerCase()}`, now)) ? 'failed' : 'waiting';

  let mobileprovision: string;
  try {
    const profile = await client.createAdHocProfile({
      name: `${appleDeviceName(reservation.deviceClass, reservation.udid)} ${now}`,
      bundleIdId: account.bundleIdId,
      // A review added before a certificate renewal holds the previous certificate's .p12: its profile lists both.
      certificateIds: profileCertificateIds(account, reservation.createdAt, now),
      deviceIds: [reservation.appleDeviceId],
    });
    if (!profile.deviceIds.includes(reservation.appleDeviceId)) return postpone(reservation, now);
    mobileprovision = profile.profileContent;
  } catch (error) {
    if (error instanceof AppleApiError && error.kind === 'devices_processing') return postpone(reservation, now);
    throw error;
  }
  // An agent's review: the levels above it are credited and pay upward now, with the issue (ledger/charges.ts).
  const upline = uplineOf(reservation.charge);
  const issue = [reservationFinishPart(reservation.reservationId, 'issued', now), ...deviceIssuedParts({ kid: reservation.kid, userId: reservation.userId }, mobileprovision), reservationIssuedPart(reservation)];
  const added = { kid: reservation.kid, udid: reservation.udid, type: reservation.deviceClass, tenant_id: reservation.tenantId, user_id: reservation.userId };
  const outcome = await writeWithUpline(
    upline,
    { kid: reservation.kid, reservation_id: reservation.reservationId, udid: reservation.udid, mode: 'review', agent_id: reservation.userId },
    now,
    upline ? [...issue, ...agentAddedParts(added, 'review', upline)] : issue,
    (parts) => transactWrite(parts),
  );
  return outcome.ok ? 'issued' : 'waiting';
}

/**
 * One pass over the due reservations; a failure on one (Apple down, say) leaves it for the next pass. No new
 * reservation is started after `budgetMs` (the scheduled function's timeout is shorter than its interval).
 */
export async function runReservationWorker(now: number, options: { budgetMs?: number } = {}): Promise<WorkerReport> {
  const releasedHolds = await releaseStaleHolds(now);
  const report: WorkerReport = { checked: 0, issued: 0, failed: 0, waiting: 0, errors: 0, releasedHolds, settledPossible: await settlePossibleRegistrations(now - STALE_HOLD_SECONDS, STALE_HOLDS_PER_PASS, now) };
  const stopAt = Date.now() + (options.budgetMs ?? 90_000);
  for (const reservation of await listDueReservations(now)) {
    if (Date.now() > stopAt) break;
    report.checked++;
    // Every pending reservation comes due at least every 30 minutes, so the largest age seen in an hour is the oldest's.
    reservationAge(now - reservation.createdAt);
    try {
      report[await advance(reservation, now)]++;
    } catch (error) {
      report.errors++;
      logger.warn('Reservation check failed; retrying on a later pass', { reservationId: reservation.reservationId, error: error as Error });
      await postponeReservation(reservation.reservationId, now + nextCheckDelaySeconds(reservation.attempts + 1)).catch(() => undefined);
    }
  }
  return report;
}
