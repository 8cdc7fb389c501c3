/**
 * Leases: a named item one owner holds until it releases it or the lease expires. Taking one is a single
 * conditional put, so of two callers racing for a free lease exactly one wins.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../tables';

/** True when `owner` now holds `leaseKey` until `expiresAt` (epoch seconds). */
export async function acquireLease(leaseKey: string, owner: string, nowSeconds: number, expiresAt: number): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName('leases'),
        Item: { lease_key: leaseKey, owner, acquired_at: nowSeconds, expires_at: expiresAt },
        ConditionExpression: 'attribute_not_exists(lease_key) OR expires_at <= :now',
        ExpressionAttributeValues: { ':now': nowSeconds },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Gives the lease back, unless it expired and someone else took it meanwhile. */
export async function releaseLease(leaseKey: string, owner: string): Promise<void> {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: tableName('leases'),
        Key: { lease_key: leaseKey },
        ConditionExpression: '#o = :o',
        ExpressionAttributeNames: { '#o': 'owner' },
        ExpressionAttributeValues: { ':o': owner },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
