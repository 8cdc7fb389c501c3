/**
 * Devices (one item per certificate, keyed by `kid`) and their numeric ids.
 *
 * Exports:
 * Items also carry the index keys `user_udid` and (when `account_id` is set) `issued_account`; reads strip them.
 *
 * - `devicePutParts(device)` — the put of a new device (condition: the kid is new) and its count in its owner's
 *   devices by state (records/device-tally.ts), as transaction parts for the add's transaction with the slot and
 *   the reservation; `putDevice(device)` writes them alone (false when the kid exists).
 * - `nextDeviceId(tenantId)` — the tenant's next numeric device id, from its atomic `counters` item
 *   `device#<tenant>` (per tenant, so no tenant learns another's volume from the ids it sees).
 * - `reserveDeviceIds(tenantId, count)` — `count` consecutive ids from the same counter in one update (bulk
 *   imports), returned lowest first.
 * - `putDevices(devices)` — new devices with their owners' counts, 50 to a transaction (bulk imports check
 *   which kids exist first).
 * - `getDevice(kid)` — strongly consistent read by kid; `getDeviceRecord(kid)` the same without the `.p12` and
 *   the profile (projected: less to read, send and decode where they are not answered).
 * - `findDeviceOwners(kids)` — for each existing kid among `kids`: its user, tenant and UDID (batched reads).
 * - `listDevicesByUserUdid(userId, udid)` — a user's certificates for a UDID (case-insensitive), newest first.
 * - `setDeviceEnabledWithCopy(device, enabled, guard)` — the owner's switch, with its copy in
 *   `disabledDevices` and its count in the owner's devices by state, in one transaction.
 */
import type { TokenSideRead } from './user-repository';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '../batch';
import { documentClient } from '../client';
import { queryAll } from '../paging';
import { tableName } from '../table-names';
import { transactionPart, transactWrite, type TransactionPart } from '../transactions';
import { disabledCopyPart } from './disabled-device-repository';
import { deviceTallyParts } from './device-tally-repository';
import { created, switched } from '../../records/device-tally';
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

/** The put of a new device and its count in its owner's devices by state (device-tally.ts), for one transaction. */
export function devicePutParts(device: Device): TransactionPart[] {
  return [transactionPart({ Put: newDevice(device) }), ...deviceTallyParts(device.user_id, created(device))];
}

export async function putDevice(device: Device): Promise<boolean> {
  const outcome = await transactWrite(devicePutParts(device));
  return outcome.ok;
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

/**
 * New devices, in transactions of up to 50 with their owners' counts (one part per owner and transaction), so
 * the counts stay exact: a kid that exists already (imports check which do first) fails its whole group.
 */
export async function putDevices(devices: readonly Device[]): Promise<void> {
  for (let i = 0; i < devices.length; i += 50) {
    const group = devices.slice(i, i + 50);
    const changes = new Map<string, { zt: Partial<Record<Device['zt'], number>>; disabled: number }>();
    for (const device of group) {
      const change = changes.get(device.user_id) ?? { zt: {}, disabled: 0 };
      change.zt[device.zt] = (change.zt[device.zt] ?? 0) + 1;
      if (!device.enabled) change.disabled++;
      changes.set(device.user_id, change);
    }
    const parts = [...group.map((device) => transactionPart({ Put: newDevice(device) })), ...[...changes].flatMap(([userId, change]) => deviceTallyParts(userId, change))];
    // Groups in flight at once share their owner's count: a conflict wrote nothing, so the group is sent again.
    for (let attempt = 0; ; attempt++) {
      const outcome = await transactWrite(parts, { conflicts: 'report' });
      if (outcome.ok) break;
      if (outcome.failed.length > 0) throw new Error(`A device of this group exists already (${outcome.failed.map((at) => group[at]?.kid).join(', ')}); nothing of the group was written`);
      if (attempt >= 8) throw new Error('The devices kept conflicting with other writes of their owner; nothing of the group was written');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2_000, 50 * 2 ** attempt)));
    }
  }
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
  // The owner's count of disabled devices moves only with a value known to change (an expected one).
  const flips = expectsValue && guard.expected !== enabled;
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
      ...(flips ? deviceTallyParts(guard.userId, switched(enabled)) : []),
    ],
    { conflicts: 'report' },
  );
  return outcome.ok ? { ...device, enabled } : undefined;
}
