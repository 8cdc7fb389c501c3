/**
 * The counters item of a user's devices by state (records/device-tally.ts): the part each device write adds to
 * its own transaction, and its key for the reads that batch it with others.
 */
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import { DISABLED_ATTRIBUTE, deviceTallyKey, ztAttribute, type DeviceTallyChange } from '../../records/device-tally';
import type { DeviceZt } from '../../records/device';

export const deviceTallyItemKey = (userId: string) => ({ counter: deviceTallyKey(userId) });

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
  return [
    transactionPart({
      Update: { TableName: tableName('counters'), Key: deviceTallyItemKey(userId), UpdateExpression: `ADD ${adds.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values },
    }),
  ];
}
