/**
 * One-off backfill for a stack deployed before tokens and hosts had their own keyed items: writes the token
 * item of every user and the host copy of every tenant with a domain. Safe to run again: a token item that
 * exists is left alone, and a host copy is rewritten from its tenant.
 */
import { putIf } from '../conditional-write';
import { scanItems } from '../paging';
import { tableName } from '../table-names';
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
    if ((await putIf({ TableName: tableName('tokens'), Item: tokenItem(user), ConditionExpression: 'attribute_not_exists(token_hash)' })).written) counts.tokens++;
  }
  for await (const item of scanItems({ TableName: tableName('tenants'), ConsistentRead: true })) {
    if (await putTenantHostCopy(item)) counts.hosts++;
  }
  return counts;
}
