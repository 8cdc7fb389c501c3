/**
 * What the add flow, the reservation worker and the revocation sweep do to device items beyond the device
 * repository's basics: the extra attributes of an issued certificate, the balance moves that travel in the same
 * transactions, and status changes.
 *
 * An issued certificate's item carries, besides the `Device` fields:
 * - `issued_account` — the account id (key of the sparse `by-account` index the sweep reads);
 * - `warranty_from` — epoch seconds of the original paid add, the start of the free re-issue window;
 * - `charge` — what the add charged.
 */
import { updateIf } from '../conditional-write';
import { queryAll } from '../paging';
import { tableName } from '../tables';
import { devicePutItem } from './device-repository';
import type { Device, DeviceZt } from '../../domain/devices/device';
import type { Charge } from '../../domain/reservations/reservation';

export interface IssuedDevice extends Device {
  issued_account: string;
  warranty_from: number;
  charge: Charge;
}

/** The extra attributes of an issued certificate, read from a device item (imported ones have none). */
export function issueDetails(device: Device): Partial<Pick<IssuedDevice, 'issued_account' | 'warranty_from' | 'charge'>> {
  return device as Partial<IssuedDevice>;
}

export function issuedDevicePutItem(device: IssuedDevice) {
  return devicePutItem(device);
}

export function balanceDebitItem(userId: string, amount: number) {
  return {
    Update: {
      TableName: tableName('users'),
      Key: { user_id: userId },
      UpdateExpression: 'SET balance = balance - :a',
      ConditionExpression: 'attribute_exists(user_id) AND balance >= :a',
      ExpressionAttributeValues: { ':a': amount },
    },
  };
}

export function balanceCreditItem(userId: string, amount: number) {
  return {
    Update: {
      TableName: tableName('users'),
      Key: { user_id: userId },
      UpdateExpression: 'SET balance = if_not_exists(balance, :zero) + :a',
      ConditionExpression: 'attribute_exists(user_id)',
      ExpressionAttributeValues: { ':a': amount, ':zero': 0 },
    },
  };
}

/** The certificate is ready: the profile arrives and the status becomes normal. */
export function deviceIssuedItem(kid: string, mobileprovision: string) {
  return {
    Update: {
      TableName: tableName('devices'),
      Key: { kid },
      UpdateExpression: 'SET zt = :normal, mobileprovision = :mp',
      ConditionExpression: 'zt = :processing',
      ExpressionAttributeValues: { ':normal': 'normal', ':processing': 'processing', ':mp': mobileprovision },
    },
  };
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

export function deviceZtItem(kid: string, zt: DeviceZt, from: DeviceZt) {
  return { Update: ztChange(kid, zt, from) };
}

/** Moves one device from `from` to `to`; false when it was not in `from` any more. */
export async function changeDeviceZt(kid: string, to: DeviceZt, from: DeviceZt): Promise<boolean> {
  return (await updateIf(ztChange(kid, to, from))).written;
}

/** The kids of an account's certificates in status `zt`. */
export async function listAccountDeviceKids(accountId: string, zt: DeviceZt): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName('devices'),
    IndexName: 'by-account',
    KeyConditionExpression: 'issued_account = :a',
    FilterExpression: 'zt = :zt',
    ExpressionAttributeValues: { ':a': accountId, ':zt': zt },
    ProjectionExpression: 'kid',
  });
  return items.map((i) => String(i.kid));
}
