/**
 * `disabledDevices`: per owner and UDID, the kids of the owner's certificates that are disabled. The
 * certificate's own `enabled` stays the truth for status and info; this copy moves with it in one
 * transaction so the feed and the gate read "any disabled certificate of this UDID" with one key.
 */
import { scanItems } from '../paging';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import { udidKey } from '../../records/device';
import { documentClient } from '../client';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';

export const disabledDeviceKey = (ownerId: string, udid: string) => ({ owner_udid: `${ownerId}#${udidKey(udid)}` });

function change(device: { user_id: string; udid: string; kid: string }, enabled: boolean) {
  return {
    TableName: tableName('disabledDevices'),
    Key: disabledDeviceKey(device.user_id, device.udid),
    UpdateExpression: enabled ? 'DELETE kids :kid' : 'ADD kids :kid',
    ExpressionAttributeValues: { ':kid': new Set([device.kid]) },
  };
}

/** The copy's side of a certificate's `enabled` change, as a part of that change's transaction. */
export function disabledCopyPart(device: { user_id: string; udid: string; kid: string }, enabled: boolean): TransactionPart {
  return transactionPart({ Update: change(device, enabled) });
}

/** Whether a `disabledDevices` item (as read) says some certificate of its UDID is disabled. */
export function anyDisabled(item: Record<string, unknown> | undefined): boolean {
  const kids = item?.kids;
  return kids instanceof Set ? kids.size > 0 : Array.isArray(kids) && kids.length > 0;
}

/** One-off backfill: the copy of every disabled certificate (safe to run again). */
export async function backfillDisabledDevices(): Promise<number> {
  let count = 0;
  for await (const item of scanItems({ TableName: tableName('devices'), ConsistentRead: true, ProjectionExpression: 'kid, user_id, udid, enabled' })) {
    if (item.enabled !== false) continue;
    await documentClient().send(new UpdateCommand(change(item as { user_id: string; udid: string; kid: string }, false)));
    count++;
  }
  return count;
}
