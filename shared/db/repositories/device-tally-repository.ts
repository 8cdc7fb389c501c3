/**
 * The counters item of a user's devices by state (records/device-tally.ts): the part each device write adds to
 * its own transaction, and its key for the reads that batch it with others.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { queryItems } from '../paging';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import { DISABLED_ATTRIBUTE, deviceTallyFromItem, deviceTallyKey, ztAttribute, type DeviceTally, type DeviceTallyChange } from '../../records/device-tally';
import { DEVICE_ZT, type DeviceZt } from '../../records/device';

export const deviceTallyItemKey = (userId: string) => ({ counter: deviceTallyKey(userId) });

/**
 * Moves on with every change, so a rebuild can tell that a certificate changed while it counted (it writes
 * only over the version it read, else counts again).
 */
const VERSION_ATTRIBUTE = 'version';

/** `ADD` of the changes to the user's item; no part when nothing changes. No condition: it never fails alone. */
export function deviceTallyParts(userId: string, change: DeviceTallyChange): TransactionPart[] {
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const adds: string[] = [];
  const add = (attribute: string, by: number) => {
    if (by === 0) return;
    const i = adds.length;
    names[`#c${i}`] = attribute;
    values[`:c${i}`] = by;
    adds.push(`#c${i} :c${i}`);
  };
  for (const [zt, by] of Object.entries(change.zt ?? {})) add(ztAttribute(zt as DeviceZt), by ?? 0);
  add(DISABLED_ATTRIBUTE, change.disabled ?? 0);
  if (adds.length === 0) return [];
  add(VERSION_ATTRIBUTE, 1);
  return [
    transactionPart({
      Update: { TableName: tableName('counters'), Key: deviceTallyItemKey(userId), UpdateExpression: `ADD ${adds.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values },
    }),
  ];
}

/** The user's stored count (strongly consistent). */
export async function readDeviceTally(userId: string): Promise<DeviceTally> {
  return (await readVersionedDeviceTally(userId)).tally;
}

/** The stored count and the version of the last change it holds (0 before any). */
export async function readVersionedDeviceTally(userId: string): Promise<{ tally: DeviceTally; version: number }> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('counters'), Key: deviceTallyItemKey(userId), ConsistentRead: true }));
  const version = out.Item?.[VERSION_ATTRIBUTE];
  return { tally: deviceTallyFromItem(out.Item), version: typeof version === 'number' ? version : 0 };
}

/**
 * The same figures counted from the certificates themselves (the owner index, every page): what the stored
 * count must equal. Reconciliation only: it reads every certificate of the user.
 */
export async function countDevicesOf(userId: string): Promise<DeviceTally> {
  const tally: DeviceTally = { byStatus: Object.fromEntries(DEVICE_ZT.map((zt) => [zt, 0])) as Record<DeviceZt, number>, disabled: 0 };
  for await (const item of queryItems({
    TableName: tableName('devices'),
    IndexName: 'by-owner',
    KeyConditionExpression: 'user_id = :u',
    ExpressionAttributeValues: { ':u': userId },
    ProjectionExpression: 'zt, enabled',
  })) {
    tally.byStatus[item.zt as DeviceZt]++;
    if (item.enabled === false) tally.disabled++;
  }
  return tally;
}

/**
 * Sets the user's count to `tally` (a rebuild from the certificates, the operator's `ledger tallies`), only if
 * no change was counted in since `version` was read. False: one was, count again.
 */
export async function setDeviceTally(userId: string, tally: DeviceTally, version: number): Promise<boolean> {
  const item: Record<string, unknown> = { ...deviceTallyItemKey(userId), [DISABLED_ATTRIBUTE]: tally.disabled, [VERSION_ATTRIBUTE]: version };
  for (const zt of DEVICE_ZT) item[ztAttribute(zt)] = tally.byStatus[zt];
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName('counters'),
        Item: item,
        ConditionExpression: version === 0 ? 'attribute_not_exists(#v) OR #v = :v' : '#v = :v',
        ExpressionAttributeNames: { '#v': VERSION_ATTRIBUTE },
        ExpressionAttributeValues: { ':v': version },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
