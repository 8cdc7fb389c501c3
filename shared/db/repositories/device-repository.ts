/**
 * Devices (one item per certificate, keyed by `kid`) and their numeric ids.
 *
 * Exports:
 * Items also carry the index keys `user_udid` and (when `account_id` is set) `issued_account`; reads strip them.
 *
 * - `devicePutPart(device)` — the put of a new device (condition: the kid is new) as a transaction part, for
 *   the add's transaction with the slot and the reservation; `putDevice(device)` writes it alone (false when
 *   the kid exists).
 * - `nextDeviceId(tenantId)` — the tenant's next numeric device id, from its atomic `counters` item
 *   `device#<tenant>` (per tenant, so no tenant learns another's volume from the ids it sees).
 * - `reserveDeviceIds(tenantId, count)` — `count` consecutive ids from the same counter in one update (bulk
 *   imports), returned lowest first.
 * - `putDevices(devices)` — batched unconditional puts (bulk imports check which kids exist first).
 * - `getDevice(kid)` — strongly consistent read by kid; `getDeviceRecord(kid)` the same without the `.p12` and
 *   the profile (projected: less to read, send and decode where they are not answered).
 * - `findDeviceOwners(kids)` — for each existing kid among `kids`: its user, tenant and UDID (batched reads).
 * - `listDevicesByUserUdid(userId, udid)` — a user's certificates for a UDID (case-insensitive), newest first.
 * - `setDeviceEnabled(kid, enabled, guard)` — one conditional update: the device must belong to
 *   `guard.userId` on `guard.tenantId` and, when `guard.expected` is given, still hold that value. Returns the
 *   updated device, or `undefined` when the condition failed (nothing changed).
 */
import type { TokenSideRead } from './user-repository';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, batchPut } from '../batch';
import { documentClient } from '../client';
import { putIf, updateIf } from '../conditional-write';
import { queryAll } from '../paging';
import { tableName } from '../table-names';
import { transactionPart, transactWrite, type TransactionPart } from '../transactions';
import { disabledCopyPart } from './disabled-device-repository';
import { DEVICE_RECORD_FIELDS, udidKey, type Device, type DeviceRecord } from '../../records/device';

interface DeviceItem extends Device {
  /** `<user_id>#<UDID upper-cased>`: the partition key of the `by-user-udid` index. */
  user_udid: string;
  /** `account_id` when there is one: the sparse `by-account` index (index keys cannot be empty strings). */
  issued_account?: string;
}

export const deviceCounterKey = (tenantId: string) => `device#${tenantId}`;

function toItem(device: Device): DeviceItem {
  return {
    ...device,
    user_udid: `${device.user_id}#${udidKey(device.udid)}`,
    ...(device.account_id ? { issued_account: device.account_id } : {}),
  };
}

function fromItem(item: Record<string, unknown>): Device {
  const { user_udid: _udidIndex, issued_account: _accountIndex, ...device } = item as unknown as DeviceItem;
  return device;
}

const newDevice = (device: Device) => ({ TableName: tableName('devices'), Item: toItem(device), ConditionExpression: 'attribute_not_exists(kid)' });

export function devicePutPart(device: Device): TransactionPart {
  return transactionPart({ Put: newDevice(device) });
}

export async function putDevice(device: Device): Promise<boolean> {
  return (await putIf(newDevice(device))).written;
}

export async function nextDeviceId(tenantId: string): Promise<number> {
  const [id] = await reserveDeviceIds(tenantId, 1);
  return id!;
}

export async function reserveDeviceIds(tenantId: string, count: number): Promise<number[]> {
  if (count <= 0) return [];
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName('counters'),
      Key: { counter: deviceCounterKey(tenantId) },
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(out.Attributes?.value);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

export async function putDevices(devices: readonly Device[]): Promise<void> {
  await batchPut(tableName('devices'), devices.map(toItem));
}

export async function findDeviceOwners(kids: readonly string[]): Promise<Map<string, Pick<Device, 'kid' | 'user_id' | 'tenant_id' | 'udid'>>> {
  const items = await batchGet(tableName('devices'), kids.map((kid) => ({ kid })), ['kid', 'user_id', 'tenant_id', 'udid']);
  return new Map(items.map((item) => [String(item.kid), item as unknown as Pick<Device, 'kid' | 'user_id' | 'tenant_id' | 'udid'>]));
}

/**
 * The record's attributes as `AttributesToGet`, a plain list of names, rather than a `ProjectionExpression`:
 * the same projection without an expression for DynamoDB to parse on every read (parsing 17 placeholders was
 * about 2% of DynamoDB Local's CPU for a device-info request in a Flight Recorder profile) and without
 * placeholders for the names that are reserved words (type, pool). The read costs the same read units either way.
 */
const RECORD_ATTRIBUTES = [...DEVICE_RECORD_FIELDS];

/** The read `getDeviceRecord` makes, for a request to make it in the same round trip as its token. */
export function deviceRecordRead(kid: string): TokenSideRead {
  return { table: 'devices', key: { kid }, attributes: RECORD_ATTRIBUTES };
}

export async function getDeviceRecord(kid: string): Promise<DeviceRecord | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('devices'), Key: { kid }, ConsistentRead: true, AttributesToGet: RECORD_ATTRIBUTES }));
  return out.Item as DeviceRecord | undefined;
}

export async function getDevice(kid: string): Promise<Device | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('devices'), Key: { kid }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : undefined;
}

export async function listDevicesByUserUdid(userId: string, udid: string): Promise<Device[]> {
  const items = await queryAll({
    TableName: tableName('devices'),
    IndexName: 'by-user-udid',
    KeyConditionExpression: 'user_udid = :k',
    ExpressionAttributeValues: { ':k': `${userId}#${udidKey(udid)}` },
    ScanIndexForward: false,
  });
  return items.map(fromItem);
}

export async function setDeviceEnabled(
  kid: string,
  enabled: boolean,
  guard: { userId: string; tenantId: string; expected?: boolean },
): Promise<Device | undefined> {
  const expectsValue = guard.expected !== undefined;
  const out = await updateIf({
    TableName: tableName('devices'),
    Key: { kid },
    UpdateExpression: 'SET enabled = :next',
    ConditionExpression: `user_id = :user AND tenant_id = :tenant${expectsValue ? ' AND enabled = :expected' : ''}`,
    ExpressionAttributeValues: {
      ':next': enabled,
      ':user': guard.userId,
      ':tenant': guard.tenantId,
      ...(expectsValue ? { ':expected': guard.expected } : {}),
    },
    ReturnValues: 'ALL_NEW',
  });
  return out.written ? fromItem(out.output.Attributes ?? {}) : undefined;
}

/** For each existing kid among `kids`: its status and owner (batched reads; reconciliation). */
export async function findDeviceStates(kids: readonly string[]): Promise<Map<string, Pick<Device, 'kid' | 'user_id' | 'zt'>>> {
  const items = await batchGet(tableName('devices'), kids.map((kid) => ({ kid })), ['kid', 'user_id', 'zt']);
  return new Map(items.map((item) => [String(item.kid), item as unknown as Pick<Device, 'kid' | 'user_id' | 'zt'>]));
}

/**
 * Sets `enabled` on a certificate the caller has read, and its owner's `disabledDevices` copy, in one
 * transaction: the certificate must still belong to `guard.userId` on `guard.tenantId` and, when
 * `guard.expected` is given, still hold that value. The device as written, or undefined when the condition
 * failed (nothing changed).
 */
export async function setDeviceEnabledWithCopy<D extends Pick<Device, 'kid' | 'user_id' | 'udid' | 'enabled'>>(
  device: D,
  enabled: boolean,
  guard: { userId: string; tenantId: string; expected?: boolean },
): Promise<D | undefined> {
  const expectsValue = guard.expected !== undefined;
  const outcome = await transactWrite(
    [
      {
        Update: {
          TableName: tableName('devices'),
          Key: { kid: device.kid },
          UpdateExpression: 'SET enabled = :next',
          ConditionExpression: `user_id = :user AND tenant_id = :tenant${expectsValue ? ' AND enabled = :expected' : ''}`,
          ExpressionAttributeValues: { ':next': enabled, ':user': guard.userId, ':tenant': guard.tenantId, ...(expectsValue ? { ':expected': guard.expected } : {}) },
        },
      },
      disabledCopyPart(device, enabled),
    ],
    { conflicts: 'report' },
  );
  return outcome.ok ? { ...device, enabled } : undefined;
}
