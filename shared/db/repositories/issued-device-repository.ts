/**
 * What the add flow, the reservation worker and the revocation sweep do to device items beyond the device
 * repository's basics: the extra attributes of an issued certificate and status changes, the latter also as
 * parts of the transactions that finish a reservation.
 *
 * An issued certificate's item carries, besides the `Device` fields:
 * - `issued_account` — the account id (key of the sparse `by-account` index the sweep reads);
 * - `warranty_from` — epoch seconds of the original paid add, the start of the free re-issue window;
 * - `charge` — what the add charged.
 */
import { itemUpdate } from '../item-update';
import { queryAll } from '../paging';
import { tableName } from '../table-names';
import { transactionPart, transactWrite, type TransactionPart } from '../transactions';
import { devicePutParts } from './device-repository';
import { deviceTallyParts } from './device-tally-repository';
import { moved } from '../../records/device-tally';
import type { Device, DeviceZt } from '../../records/device';
import type { Charge } from '../../records/reservation';

export interface IssuedDevice extends Device {
  issued_account: string;
  warranty_from: number;
  charge: Charge;
}

/** The extra attributes of an issued certificate, read from a device item (imported ones have none). */
export function issueDetails(device: Device): Partial<Pick<IssuedDevice, 'issued_account' | 'warranty_from' | 'charge'>> {
  return device as Partial<IssuedDevice>;
}

/** The put of an issued certificate and its count in its owner's devices by state. */
export function issuedDeviceParts(device: IssuedDevice): TransactionPart[] {
  return devicePutParts(device);
}

/** The certificate is ready: the profile arrives and the status becomes normal (and is counted so). */
export function deviceIssuedParts(device: { kid: string; userId: string }, mobileprovision: string): TransactionPart[] {
  return [
    transactionPart({
      Update: {
        TableName: tableName('devices'),
        Key: { kid: device.kid },
        UpdateExpression: 'SET zt = :normal, mobileprovision = :mp',
        ConditionExpression: 'zt = :processing',
        ExpressionAttributeValues: { ':normal': 'normal', ':processing': 'processing', ':mp': mobileprovision },
      },
    }),
    ...deviceTallyParts(device.userId, moved('processing', 'normal')),
  ];
}

function ztChange(kid: string, zt: DeviceZt, from: DeviceZt) {
  return {
    TableName: tableName('devices'),
    Key: { kid },
    UpdateExpression: 'SET zt = :to',
    ConditionExpression: 'zt = :from',
    ExpressionAttributeValues: { ':to': zt, ':from': from },
  };
}

/** One device moved from `from` to `zt` (on that condition), and its owner's count with it. */
export function deviceZtParts(device: { kid: string; userId: string }, zt: DeviceZt, from: DeviceZt): TransactionPart[] {
  return [transactionPart({ Update: ztChange(device.kid, zt, from) }), ...deviceTallyParts(device.userId, moved(from, zt))];
}

/** Moves one device from `from` to `to`; false when it was not in `from` any more. */
export async function changeDeviceZt(device: { kid: string; userId: string }, to: DeviceZt, from: DeviceZt): Promise<boolean> {
  return (await transactWrite(deviceZtParts(device, to, from))).ok;
}

/** The kids of the account's certificates whose attribute `name` is `value` (the by-account index, kids only). */
export async function accountKidsWhere(accountId: string, name: 'zt' | 'apple_device_id', value: string): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName('devices'),
    IndexName: 'by-account',
    KeyConditionExpression: 'issued_account = :a',
    FilterExpression: '#f = :v',
    ExpressionAttributeNames: { '#f': name },
    ExpressionAttributeValues: { ':a': accountId, ':v': value },
    ProjectionExpression: 'kid',
  });
  return items.map((i) => String(i.kid));
}

/** The kids of an account's certificates in status `zt`. */
export const listAccountDeviceKids = (accountId: string, zt: DeviceZt): Promise<string[]> => accountKidsWhere(accountId, 'zt', zt);

/** A usable certificate on the account that renewal `renewalId` has not finished yet. */
export interface DeviceToRenew {
  kid: string;
  udid: string;
  appleDeviceId: string;
}

/** The account's usable certificates the renewal has not finished (each carries `renewed_by` once it has). */
export async function listDevicesToRenew(accountId: string, renewalId: string): Promise<DeviceToRenew[]> {
  const items = await queryAll({
    TableName: tableName('devices'),
    IndexName: 'by-account',
    KeyConditionExpression: 'issued_account = :a',
    FilterExpression: 'zt = :normal AND (attribute_not_exists(renewed_by) OR renewed_by <> :r)',
    ExpressionAttributeValues: { ':a': accountId, ':normal': 'normal', ':r': renewalId },
    ProjectionExpression: 'kid, udid, apple_device_id',
  });
  return items.map((i) => ({ kid: String(i.kid), udid: String(i.udid), appleDeviceId: String(i.apple_device_id ?? '') }));
}

/**
 * One device finished by a renewal: with `signing`, the `.p12` of the new identity and a profile made with it;
 * without, only the mark (Apple made no profile for it: it keeps its signing). Once per renewal, while the
 * certificate is usable and on that account.
 */
export function renewedSigningPart(kid: string, accountId: string, renewalId: string, signing?: { p12: string; mobileprovision: string }): TransactionPart {
  return transactionPart({
    Update: itemUpdate('devices', { kid }, {
      change: signing ? 'SET p12 = :p, mobileprovision = :m, renewed_by = :r' : 'SET renewed_by = :r',
      when: 'zt = :normal AND account_id = :a AND (attribute_not_exists(renewed_by) OR renewed_by <> :r)',
      values: { ':normal': 'normal', ':a': accountId, ':r': renewalId, ...(signing ? { ':p': signing.p12, ':m': signing.mobileprovision } : {}) },
    }),
  });
}
