/**
 * Activation codes. A code is used exactly once: the use is a conditional update inside the add's
 * transaction, and a refund (failed reservation) gives the code back.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import type { ActivationCode } from '../../records/activation-code';

interface CodeItem {
  code: string;
  tenant_id: string;
  mode: ActivationCode['mode'];
  tier: number;
  created_for: string;
  created_at: number;
  used_by?: string;
  used_at?: number;
}

function fromItem(i: CodeItem): ActivationCode {
  return { code: i.code, tenantId: i.tenant_id, mode: i.mode, tier: Number(i.tier), createdFor: i.created_for, createdAt: i.created_at, usedBy: i.used_by, usedAt: i.used_at };
}

export async function putCode(code: ActivationCode): Promise<void> {
  const item: CodeItem = { code: code.code, tenant_id: code.tenantId, mode: code.mode, tier: code.tier, created_for: code.createdFor, created_at: code.createdAt };
  await documentClient().send(new PutCommand({ TableName: tableName('codes'), Item: item, ConditionExpression: 'attribute_not_exists(code)' }));
}

export async function getCode(code: string): Promise<ActivationCode | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('codes'), Key: { code }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item as CodeItem) : undefined;
}

/** Marks the code used by `userId`, only if it is still unused and belongs to the tenant and mode. */
export function codeUsePart(code: ActivationCode, userId: string, at: number): TransactionPart {
  return transactionPart({
    Update: {
      TableName: tableName('codes'),
      Key: { code: code.code },
      UpdateExpression: 'SET used_by = :u, used_at = :at',
      ConditionExpression: 'attribute_not_exists(used_at) AND tenant_id = :t AND #mode = :m',
      ExpressionAttributeNames: { '#mode': 'mode' },
      ExpressionAttributeValues: { ':u': userId, ':at': at, ':t': code.tenantId, ':m': code.mode },
    },
  });
}

/** The refund of a code: it can be used again. */
export function codeReleasePart(code: string): TransactionPart {
  return transactionPart({
    Update: {
      TableName: tableName('codes'),
      Key: { code },
      UpdateExpression: 'REMOVE used_by, used_at',
      ConditionExpression: 'attribute_exists(used_at)',
    },
  });
}
