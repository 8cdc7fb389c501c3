/**
 * One-off backfill for a stack deployed before tokens and hosts had their own keyed items: writes the token
 * item of every user and the host copy of every tenant with a domain. Safe to run again: a token item that
 * exists is left alone, and a host copy is rewritten from its tenant.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { scanItems } from '../paging';
import { tableName } from '../tables';
import { putTenantHostCopy } from './tenant-repository';
import { tokenItem, userFromItem } from './user-repository';

export interface BackfillCounts {
  tokens: number;
  hosts: number;
}

export async function backfillLookups(): Promise<BackfillCounts> {
  const counts: BackfillCounts = { tokens: 0, hosts: 0 };
  for await (const item of scanItems({ TableName: tableName('users'), ConsistentRead: true })) {
    const user = userFromItem(item);
    if (!user.tokenHash) continue;
    try {
      await documentClient().send(new PutCommand({ TableName: tableName('tokens'), Item: tokenItem(user), ConditionExpression: 'attribute_not_exists(token_hash)' }));
      counts.tokens++;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }
  for await (const item of scanItems({ TableName: tableName('tenants'), ConsistentRead: true })) {
    if (await putTenantHostCopy(item)) counts.hosts++;
  }
  return counts;
}
