/**
 * What the revocation sweep needs of device items to tell their owners: an account's certificates with the
 * fields the events carry (the sparse `by-account` index projects them all), and the per-device mark that
 * says the current membership expiry was already announced (`expiry_notice`).
 */
import { queryAll } from '../paging';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import type { DeviceZt } from '../../records/device';

export interface AccountDevice {
  kid: string;
  id: number;
  userId: string;
  tenantId: string;
  udid: string;
  pool: number;
  shtype: number;
  addtime: number;
  warrantyFrom: number;
  /** The membership expiry already announced for this certificate; 0 when none was. */
  expiryNotice: number;
}

const PROJECTED = ['kid', 'id', 'user_id', 'tenant_id', 'udid', 'pool', 'shtype', 'addtime', 'warranty_from', 'expiry_notice'];

/** The account's certificates in status `zt`; with `unannouncedExpiry`, only those not yet told about it. */
export async function listAccountDevices(accountId: string, zt: DeviceZt, options: { unannouncedExpiry?: number } = {}): Promise<AccountDevice[]> {
  const expiry = options.unannouncedExpiry;
  const items = await queryAll({
    TableName: tableName('devices'),
    IndexName: 'by-account',
    KeyConditionExpression: 'issued_account = :a',
    FilterExpression: expiry === undefined ? 'zt = :zt' : 'zt = :zt AND (attribute_not_exists(expiry_notice) OR expiry_notice <> :exp)',
    ExpressionAttributeValues: { ':a': accountId, ':zt': zt, ...(expiry === undefined ? {} : { ':exp': expiry }) },
    ProjectionExpression: PROJECTED.map((_, i) => `#p${i}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(PROJECTED.map((name, i) => [`#p${i}`, name])),
  });
  return items.map((i) => ({
    kid: String(i.kid),
    id: Number(i.id ?? 0),
    userId: String(i.user_id),
    tenantId: String(i.tenant_id),
    udid: String(i.udid),
    pool: Number(i.pool ?? 0),
    shtype: Number(i.shtype ?? 0),
    addtime: Number(i.addtime ?? 0),
    warrantyFrom: Number(i.warranty_from ?? i.addtime ?? 0),
    expiryNotice: Number(i.expiry_notice ?? 0),
  }));
}

/** Marks the certificate as told about the membership ending at `expiresAt`; once per expiry, while it is usable. */
export function expiryNoticePart(kid: string, expiresAt: number): TransactionPart {
  return transactionPart({
    Update: {
      TableName: tableName('devices'),
      Key: { kid },
      UpdateExpression: 'SET expiry_notice = :exp',
      ConditionExpression: 'zt = :normal AND (attribute_not_exists(expiry_notice) OR expiry_notice <> :exp)',
      ExpressionAttributeValues: { ':exp': expiresAt, ':normal': 'normal' },
    },
  });
}
