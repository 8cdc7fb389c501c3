/**
 * Device keys: the opaque part of a device's own feed URL. Both directions live in the source's
 * `sourceProtection` partition: `dkey#<key>` names the UDID it proves, `devkey#<UDID>` the key a UDID was
 * given (so a device keeps one URL until the owner revokes it). Written together, removed together — except
 * that a revocation leaves `devkey#<UDID>` behind without a key, holding `revoked_at`, and a key issued later
 * keeps that time: a customer's proof from before it is never given a key again.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { transactionPart, transactWrite } from '../transactions';

const table = () => tableName('sourceProtection');
export const deviceKeyItem = (key: string) => `dkey#${key}`;
const udidKeyItem = (udid: string) => `devkey#${udid}`;

export { udidKeyItem as deviceUrlItem };

/** What the source holds for a UDID: its key, if it has one, and when its owner last revoked one. */
export interface DeviceKeyState {
  key: string | undefined;
  /** Epoch seconds of the last revocation; 0 when none. */
  revokedAt: number;
}

/** The state of a `devkey#<UDID>` item (undefined: none). */
export function deviceKeyState(item: Record<string, unknown> | undefined): DeviceKeyState {
  return { key: typeof item?.key === 'string' ? item.key : undefined, revokedAt: Number(item?.revoked_at ?? 0) };
}

/** The key `udid` holds for the source (if it was given one) and its last revocation. */
export async function readDeviceKey(sourceId: string, udid: string): Promise<DeviceKeyState> {
  const out = await documentClient().send(new GetCommand({ TableName: table(), Key: { source_id: sourceId, item_key: udidKeyItem(udid) }, ConsistentRead: true }));
  return deviceKeyState(out.Item);
}

/**
 * Stores `key` for `udid`, on the condition that the UDID holds no key yet (false then: read the one it has).
 * A revocation's time is carried over.
 */
export async function putDeviceKey(sourceId: string, udid: string, key: string, now: number, revokedAt = 0): Promise<boolean> {
  const outcome = await transactWrite(
    [
      transactionPart({
        Put: {
          TableName: table(),
          Item: { source_id: sourceId, item_key: udidKeyItem(udid), udid, key, created_at: now, ...(revokedAt ? { revoked_at: revokedAt } : {}) },
          ConditionExpression: 'attribute_not_exists(item_key) OR attribute_not_exists(#key)',
          ExpressionAttributeNames: { '#key': 'key' },
        },
      }),
      transactionPart({ Put: { TableName: table(), Item: { source_id: sourceId, item_key: deviceKeyItem(key), udid, created_at: now }, ConditionExpression: 'attribute_not_exists(item_key)' } }),
    ],
    { conflicts: 'report' },
  );
  return outcome.ok;
}

/** Removes the UDID's key in both directions, recording when; the key it held, if any. */
export async function deleteDeviceKey(sourceId: string, udid: string, now: number): Promise<string | undefined> {
  const { key } = await readDeviceKey(sourceId, udid);
  if (!key) return undefined;
  await transactWrite([
    transactionPart({ Put: { TableName: table(), Item: { source_id: sourceId, item_key: udidKeyItem(udid), udid, revoked_at: now } } }),
    transactionPart({ Delete: { TableName: table(), Key: { source_id: sourceId, item_key: deviceKeyItem(key) } } }),
  ]);
  return key;
}
