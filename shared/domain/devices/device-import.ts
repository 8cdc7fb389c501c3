/**
 * Bringing an existing certificate over (operator CLI `device import`): a device row with `zt` `normal`,
 * enabled, on the user's tenant, without Apple being involved.
 */
import { nextDeviceId, putDevice } from '../../db/repositories/device-repository';
import { RuleError } from '../errors';
import { randomId } from '../../ids';
import { requireUser } from '../users/user-service';
import { isWarrantyTier, WARRANTY_TIERS } from '../pricing/warranty';
import { isUdidFormat, KID_PATTERN, type Device, type DeviceType } from '../../records/device';

export interface DeviceImport {
  userId: string;
  udid: string;
  kid?: string | undefined;
  type?: DeviceType | undefined;
  warranty?: number | undefined;
  beizhu?: string | undefined;
  pname?: string | undefined;
}

export async function importDevice(input: DeviceImport, now: number): Promise<Device> {
  const user = await requireUser(input.userId);
  const udid = input.udid.trim();
  if (!isUdidFormat(udid)) throw new RuleError('udid_invalid', 'a UDID must be 25 characters (XXXXXXXX-XXXXXXXXXXXXXXXX) or 40, hex');
  if (input.kid !== undefined && !KID_PATTERN.test(input.kid)) throw new RuleError('kid_invalid', 'a kid may hold only letters, digits, "-", "_" and "." (at most 128)');
  const warranty = input.warranty ?? 0;
  if (!isWarrantyTier(warranty)) throw new RuleError('warranty_invalid', `the warranty tier must be one of ${WARRANTY_TIERS.join(', ')}`);
  const device: Device = {
    kid: input.kid ?? randomId('k', 16),
    id: await nextDeviceId(user.tenantId),
    user_id: user.userId,
    tenant_id: user.tenantId,
    udid,
    pname: input.pname ?? '',
    type: input.type ?? 'iphone',
    shtype: warranty,
    zt: 'normal',
    ytime: 0,
    enabled: true,
    beizhu: input.beizhu ?? '',
    p12: '',
    mobileprovision: '',
    pool: 0,
    account_id: '',
    addtime: now,
    apple_device_id: '',
    reservation_id: '',
  };
  if (!(await putDevice(device))) throw new RuleError('kid_taken', `a device with kid ${device.kid} already exists`);
  return device;
}
