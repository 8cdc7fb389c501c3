/**
 * A registration Apple holds for an add that did not deliver on that account — the add moved on after the
 * account's profile failed, or the add's function died after Apple registered the device. It is kept as an
 * uncharged `failed` certificate with Apple's device id: the registration and its slot belong to a row, and
 * the next add of the UDID on that account reuses them instead of using a new slot.
 */
import { nextDeviceId } from '../../db/repositories/device-repository';
import { issuedDevicePart, type IssuedDevice } from '../../db/repositories/issued-device-repository';
import type { TransactionOutcome, TransactionPart } from '../../db/transactions';
import { logger } from '../../logger';
import type { Account, DeviceClass } from '../../records/account';
import type { DevicePool } from '../../records/device';
import { randomId } from '../../ids';
import { NEWLY_REGISTERED, slotState, writeWithSlot } from './registration-slot';

export interface KeptRegistration {
  tenantId: string;
  userId: string;
  udid: string;
  pool: DevicePool;
  deviceClass: DeviceClass;
  beizhu: string;
  account: Account;
  appleDeviceId: string;
  deviceName: string;
  now: number;
}

/** The failed row that keeps the registration: uncharged, no profile, Apple's device id. */
export async function keptRow(kept: KeptRegistration): Promise<IssuedDevice> {
  return {
    kid: randomId('k', 16),
    id: await nextDeviceId(kept.tenantId),
    user_id: kept.userId,
    tenant_id: kept.tenantId,
    udid: kept.udid,
    pname: kept.deviceName,
    type: kept.deviceClass,
    shtype: 0,
    zt: 'failed',
    ytime: kept.account.expiresAt,
    enabled: true,
    beizhu: kept.beizhu,
    p12: '',
    mobileprovision: '',
    pool: kept.pool,
    account_id: kept.account.accountId,
    addtime: kept.now,
    apple_device_id: kept.appleDeviceId,
    reservation_id: '',
    issued_account: kept.account.accountId,
    warranty_from: kept.now,
    charge: { kind: 'free' },
  };
}

/**
 * Accounts for the slot reserved for a registration nobody delivered on: the failed row is written and counts
 * the slot — or, when another certificate counts it already, the slot goes back and no row is needed. `also`
 * joins the same write (a dead add's note on its hold). `newlyRegistered`: Apple registered the UDID for this
 * add a moment ago, so nobody can count it yet (no read first). A failure is logged, not thrown: whatever the
 * caller was doing can still finish. The outcome's `failed` indexes are those of `also`.
 */
export async function keepRegistration(kept: KeptRegistration, options: { newlyRegistered?: boolean; also?: TransactionPart[] } = {}): Promise<TransactionOutcome | undefined> {
  const claim = { accountId: kept.account.accountId, deviceClass: kept.deviceClass, udid: kept.udid, appleDeviceId: kept.appleDeviceId };
  const also = options.also ?? [];
  try {
    const row = await keptRow(kept);
    const state = options.newlyRegistered ? NEWLY_REGISTERED : await slotState(claim);
    const outcome = await writeWithSlot(claim, row.kid, state, also, [issuedDevicePart(row)]);
    if (outcome.isOwner) logger.warn('Kept a registration no certificate was delivered on as a failed certificate', { kid: row.kid, accountId: kept.account.accountId });
    return outcome;
  } catch (error) {
    logger.error('Could not keep a registration no certificate was delivered on', { accountId: kept.account.accountId, appleDeviceId: kept.appleDeviceId, error: error as Error });
    return undefined;
  }
}
