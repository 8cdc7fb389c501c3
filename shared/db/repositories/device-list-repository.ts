/**
 * A page of one user's certificates, newest first, read from an index keyed by the owner (`by-owner`, or
 * `by-user-udid` when one UDID is asked for): never a scan, and never the `.p12` or the profile (the owner
 * index does not hold them). The work is bounded by the page and a read budget, not by the tenant's size.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { DEVICE_RECORD_FIELDS, udidKey, type DeviceRecord, type DeviceType, type DeviceZt } from '../../records/device';

// The UDID index copies whole items: the read asks for the record only, never the `.p12` or the profile.
const PROJECTION_NAMES = Object.fromEntries(DEVICE_RECORD_FIELDS.map((field, i) => [`#r${i}`, field]));
const PROJECTION = Object.keys(PROJECTION_NAMES).join(', ');

export interface DeviceListQuery {
  userId: string;
  tenantId: string;
  udid?: string | undefined;
  zt?: DeviceZt | undefined;
  enabled?: boolean | undefined;
  pool?: number | undefined;
  warranty?: number | undefined;
  deviceType?: DeviceType | undefined;
  addedFrom?: number | undefined;
  addedTo?: number | undefined;
  /** Membership expiry (`ytime`) before this time; devices with an unknown expiry (0) do not match. */
  expiresBefore?: number | undefined;
  /** Lower-cased; the remark contains it, case-insensitively (checked here: DynamoDB's `contains` is not). */
  beizhu?: string | undefined;
  /** Only the certificates on this Apple account (the caller's own: checked by the service before). */
  accountId?: string | undefined;
  /** Start after this certificate (the cursor). */
  after?: { kid: string; addtime: number } | undefined;
  limit: number;
  /** At most this many index entries are read to fill the page. */
  readBudget: number;
}

export interface DeviceListPage {
  devices: DeviceRecord[];
  /** Where the next page starts; undefined at the end. */
  next: { kid: string; addtime: number } | undefined;
}

export async function listOwnedDevices(q: DeviceListQuery): Promise<DeviceListPage> {
  const byUdid = q.udid !== undefined;
  const partition = byUdid ? { name: 'user_udid', value: `${q.userId}#${udidKey(q.udid!)}` } : { name: 'user_id', value: q.userId };
  const names: Record<string, string> = { ...PROJECTION_NAMES, '#pk': partition.name, '#tenant': 'tenant_id' };
  const values: Record<string, unknown> = { ':pk': partition.value, ':tenant': q.tenantId };
  let keyCondition = '#pk = :pk';
  if (q.addedFrom !== undefined || q.addedTo !== undefined) {
    names['#addtime'] = 'addtime';
    values[':from'] = q.addedFrom ?? 0;
    values[':to'] = q.addedTo ?? Number.MAX_SAFE_INTEGER;
    keyCondition += ' AND #addtime BETWEEN :from AND :to';
  }
  const filters = ['#tenant = :tenant'];
  const equal = (attribute: string, value: unknown) => {
    if (value === undefined) return;
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    filters.push(`#${attribute} = :${attribute}`);
  };
  equal('zt', q.zt);
  equal('enabled', q.enabled);
  equal('pool', q.pool);
  equal('shtype', q.warranty);
  equal('type', q.deviceType);
  equal('account_id', q.accountId);
  if (q.expiresBefore !== undefined) {
    names['#ytime'] = 'ytime';
    values[':expires'] = q.expiresBefore;
    values[':unknown'] = 0;
    filters.push('#ytime > :unknown AND #ytime < :expires');
  }
  const matches = (device: DeviceRecord) => q.beizhu === undefined || device.beizhu.toLowerCase().includes(q.beizhu);

  const found: DeviceRecord[] = [];
  let start: Record<string, unknown> | undefined = q.after ? { kid: q.after.kid, addtime: q.after.addtime, [partition.name]: partition.value } : undefined;
  let read = 0;
  while (read < q.readBudget) {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName('devices'),
        IndexName: byUdid ? 'by-user-udid' : 'by-owner',
        KeyConditionExpression: keyCondition,
        FilterExpression: filters.join(' AND '),
        ProjectionExpression: PROJECTION,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        // One more than the page tells whether another follows; filters skip entries, so read at least 100.
        Limit: Math.min(q.readBudget - read, Math.max(q.limit + 1 - found.length, 100)),
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    read += out.ScannedCount ?? 0;
    for (const item of out.Items ?? []) {
      const device = item as DeviceRecord;
      if (!matches(device)) continue;
      found.push(device);
      if (found.length > q.limit) {
        const last = found[q.limit - 1]!;
        return { devices: found.slice(0, q.limit), next: { kid: last.kid, addtime: last.addtime } };
      }
    }
    start = out.LastEvaluatedKey;
    if (!start) return { devices: found, next: undefined };
  }
  // The budget ran out first: the next page goes on from where reading stopped.
  return { devices: found, next: { kid: String(start!.kid), addtime: Number(start!.addtime) } };
}


export interface ExpiringDevice {
  kid: string;
  id: number;
  udid: string;
  ytime: number;
}

/**
 * A user's usable certificates (status `normal`, enabled) whose membership ends in `[from, until)`, soonest
 * first, from the `by-owner-expiry` index: one Query that evaluates at most `budget` index entries. `count` is
 * exact when `more` is false, and a lower bound otherwise; `first` holds the soonest `firstCount`.
 */
export async function expiringDevices(q: { userId: string; tenantId: string; from: number; until: number; budget: number; firstCount: number }): Promise<{ count: number; more: boolean; first: ExpiringDevice[] }> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('devices'),
      IndexName: 'by-owner-expiry',
      KeyConditionExpression: 'user_id = :u AND ytime BETWEEN :from AND :until',
      FilterExpression: '#zt = :normal AND #enabled = :yes AND #tenant = :t',
      ExpressionAttributeNames: { '#zt': 'zt', '#enabled': 'enabled', '#tenant': 'tenant_id', '#id': 'id' },
      ExpressionAttributeValues: { ':u': q.userId, ':from': q.from, ':until': q.until - 1, ':normal': 'normal', ':yes': true, ':t': q.tenantId },
      ProjectionExpression: 'kid, #id, udid, ytime',
      Limit: q.budget,
    }),
  );
  const items = out.Items ?? [];
  return {
    count: items.length,
    more: out.LastEvaluatedKey !== undefined,
    first: items.slice(0, q.firstCount).map((i) => ({ kid: String(i.kid), id: Number(i.id), udid: String(i.udid), ytime: Number(i.ytime) })),
  };
}
