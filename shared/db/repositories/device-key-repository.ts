/**
 * Device keys: the opaque part of a device's own feed URL. Both directions live in the source's
 * `sourceProtection` partition: `dkey#<key>` names the UDID it proves, `devkey#<UDID>` the key a UDID was
 * given (so a device keeps one URL until the owner revokes it). Written together, removed together.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { transactionPart, transactWrite } from '../transactions';

const table = () => tableName('sourceProtection');
export const deviceKeyItem = (key: string) => `dkey#${key}`;
const udidKeyItem = (udid: string) => `devkey#${udid}`;

/** The key `udid` holds for the source, if it was given one. */
export async function deviceKeyOf(sourceId: string, udid: string): Promise<string | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: table(), Key: { source_id: sourceId, item_key: udidKeyItem(udid) }, ConsistentRead: true }));
  return out.Item?.key as string | undefined;
}

/** Stores `key` for `udid`, on the condition that the UDID has none yet (false then: read the one it has). */
export async function putDeviceKey(sourceId: string, udid: string, key: string, now: number): Promise<boolean> {
  const put = (itemKey: string, item: Record<string, unknown>) =>
    transactionPart({ Put: { TableName: table(), Item: { source_id: sourceId, item_key: itemKey, ...item }, ConditionExpression: 'attribute_not_exists(item_key)' } });
  const outcome = await transactWrite([put(udidKeyItem(udid), { udid, key, created_at: now }), put(deviceKeyItem(key), { udid, created_at: now })], { conflicts: 'report' });
  return outcome.ok;
}

/** Removes the UDID's key in both directions; the key it held, if any. */
export async function deleteDeviceKey(sourceId: string, udid: string): Promise<string | undefined> {
  const key = await deviceKeyOf(sourceId, udid);
  if (!key) return undefined;
  const del = (itemKey: string) => transactionPart({ Delete: { TableName: table(), Key: { source_id: sourceId, item_key: itemKey } } });
  await transactWrite([del(udidKeyItem(udid)), del(deviceKeyItem(key))]);
  return key;
}
