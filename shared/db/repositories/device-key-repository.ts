/**
 * Device keys: the opaque part of a device's own feed URL. Both directions live in the source's
 * `sourceProtection` partition: `dkey#<key>` names the UDID it proves, `devkey#<UDID>` the key a UDID was
 * given (so a device keeps one URL until the owner revokes it). Written together, removed together.
 */
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../tables';
import { transactionPart, transactWrite } from '../transactions';
import type { Source } from '../../domain/sources/source';

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

/**
 * The source and, when the reader sent a device key, the UDID that key proves: one BatchGetItem, so knowing
 * the device costs the feed no round trip of its own.
 */
export async function sourceWithDeviceKey(sourceId: string, key: string | undefined): Promise<{ source: Source | undefined; provenUdid: string | undefined }> {
  const sources = tableName('sources');
  const protection = table();
  const out = await documentClient().send(
    new BatchGetCommand({
      RequestItems: {
        [sources]: { Keys: [{ source_id: sourceId }], ConsistentRead: true },
        ...(key ? { [protection]: { Keys: [{ source_id: sourceId, item_key: deviceKeyItem(key) }], ConsistentRead: true } } : {}),
      },
    }),
  );
  let found = out.Responses ?? {};
  // Two keys are cheap to read again one at a time should a batch leave any unprocessed.
  if (Object.keys(out.UnprocessedKeys ?? {}).length) {
    const [source, keyItem] = await Promise.all([
      documentClient().send(new GetCommand({ TableName: sources, Key: { source_id: sourceId }, ConsistentRead: true })),
      key ? documentClient().send(new GetCommand({ TableName: protection, Key: { source_id: sourceId, item_key: deviceKeyItem(key) }, ConsistentRead: true })) : undefined,
    ]);
    found = { [sources]: source.Item ? [source.Item] : [], [protection]: keyItem?.Item ? [keyItem.Item] : [] };
  }
  return { source: found[sources]?.[0] as Source | undefined, provenUdid: found[protection]?.[0]?.udid as string | undefined };
}
