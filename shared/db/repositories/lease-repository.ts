/**
 * Leases: a named item one owner holds until it releases it or the lease expires. Taking one is a single
 * conditional put, so of two callers racing for a free lease exactly one wins.
 */
import { deleteIf, putIf } from '../conditional-write';
import { tableName } from '../table-names';

/** True when `owner` now holds `leaseKey` until `expiresAt` (epoch seconds). */
export async function acquireLease(leaseKey: string, owner: string, nowSeconds: number, expiresAt: number): Promise<boolean> {
  const out = await putIf({
    TableName: tableName('leases'),
    Item: { lease_key: leaseKey, owner, acquired_at: nowSeconds, expires_at: expiresAt },
    ConditionExpression: 'attribute_not_exists(lease_key) OR expires_at <= :now',
    ExpressionAttributeValues: { ':now': nowSeconds },
  });
  return out.written;
}

/** Gives the lease back, unless it expired and someone else took it meanwhile. */
export async function releaseLease(leaseKey: string, owner: string): Promise<void> {
  await deleteIf({
    TableName: tableName('leases'),
    Key: { lease_key: leaseKey },
    ConditionExpression: '#o = :o',
    ExpressionAttributeNames: { '#o': 'owner' },
    ExpressionAttributeValues: { ':o': owner },
  });
}
