import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../tables';
import type { User } from '../../domain/users/user';

interface UserItem {
  user_id: string;
  tenant_id: string;
  name?: string;
  balance?: number;
  token_hash: string;
  token_expires_at?: number;
}

function fromItem(item: UserItem): User {
  return {
    userId: item.user_id,
    tenantId: item.tenant_id,
    name: item.name ?? '',
    balance: item.balance ?? 0,
    tokenHash: item.token_hash,
    tokenExpiresAt: item.token_expires_at,
  };
}

export async function getUser(userId: string): Promise<User | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('users'), Key: { user_id: userId }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item as UserItem) : undefined;
}

/**
 * The user holding the token with this hash. The index is eventually consistent, so the hit is confirmed
 * with a strongly consistent read: a token rotated a moment ago is refused at once.
 */
export async function findUserByTokenHash(tokenHash: string): Promise<User | undefined> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('users'),
      IndexName: 'by-token-hash',
      KeyConditionExpression: 'token_hash = :h',
      ExpressionAttributeValues: { ':h': tokenHash },
      Limit: 1,
    }),
  );
  const hit = out.Items?.[0] as UserItem | undefined;
  if (!hit) return undefined;
  const user = await getUser(hit.user_id);
  return user && user.tokenHash === tokenHash ? user : undefined;
}

export async function createUser(user: { userId: string; tenantId: string; name: string; balance: number; tokenHash: string; createdAt: number }): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName('users'),
      Item: {
        user_id: user.userId,
        tenant_id: user.tenantId,
        name: user.name,
        balance: user.balance,
        token_hash: user.tokenHash,
        created_at: user.createdAt,
      },
      ConditionExpression: 'attribute_not_exists(user_id)',
    }),
  );
}

async function updateExisting(userId: string, expression: string, values: Record<string, unknown>, remove = ''): Promise<User | undefined> {
  try {
    const out = await documentClient().send(
      new UpdateCommand({
        TableName: tableName('users'),
        Key: { user_id: userId },
        UpdateExpression: `${expression}${remove ? ` REMOVE ${remove}` : ''}`,
        ConditionExpression: 'attribute_exists(user_id)',
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(out.Attributes as UserItem);
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return undefined;
    throw err;
  }
}

/** Replaces the token (the old one stops working at once) and clears any expiry. */
export function replaceToken(userId: string, tokenHash: string): Promise<User | undefined> {
  return updateExisting(userId, 'SET token_hash = :h', { ':h': tokenHash }, 'token_expires_at');
}

export function expireToken(userId: string, at: number): Promise<User | undefined> {
  return updateExisting(userId, 'SET token_expires_at = :t', { ':t': at });
}

export function creditBalance(userId: string, amount: number): Promise<User | undefined> {
  return updateExisting(userId, 'SET balance = if_not_exists(balance, :zero) + :a', { ':a': amount, ':zero': 0 });
}
