/**
 * A registration Apple holds for an add that did not deliver on that account — the add moved on after the
 * account's profile failed, or the add's function died after Apple registered the device. It is kept as an
 * uncharged `failed` certificate with Apple's device id: the registration and its slot belong to a row, and
 * the next add of the UDID on that account reuses them instead of using a new slot.
 */
import { nextDeviceId } from '../../db/repositories/device-repository';
import { issuedDevicePart, type IssuedDevice } from '../../db/repositories/issued-device-repository';
import { transactWrite } from '../../db/transactions';
import { logger } from '../../logger';
import type { Account, DeviceClass } from '../accounts/account';
import type { DevicePool } from '../devices/device';
import { randomId } from '../ids';

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

/** Writes the failed row; a failure is logged, not thrown (whatever the caller was doing can still finish). */
export async function keepRegistration(kept: KeptRegistration): Promise<boolean> {
  try {
    const row: IssuedDevice = {
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
    await transactWrite([issuedDevicePart(row)]);
    logger.warn('Kept a registration no certificate was delivered on as a failed certificate', { kid: row.kid, accountId: kept.account.accountId });
    return true;
  } catch (error) {
    logger.error('Could not keep a registration no certificate was delivered on', { accountId: kept.account.accountId, appleDeviceId: kept.appleDeviceId, error: error as Error });
    return false;
  }
}
