/**
 * The reads and the one write every token route makes of a console session (token auth, shared/http): kept
 * apart from the rest of the console's items (console-auth-repository.ts) so every function's bundle carries
 * only these few lines.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';

/** `session#<SHA-256 of the cookie value>`: the cookie itself is never stored. */
export const sessionItemKey = (hash: string) => `session#${hash}`;

export async function readSessionItem(itemKey: string): Promise<Record<string, unknown> | undefined> {
  return (await documentClient().send(new GetCommand({ TableName: tableName('consoleAuth'), Key: { item_key: itemKey }, ConsistentRead: true }))).Item;
}

/** Moves a live session's idle end forward; nothing when it was signed out or revoked meanwhile. */
export async function touchSession(itemKey: string, lastSeenAt: number, expiresAt: number, ip: string, userAgent: string): Promise<void> {
  await updateIf({
    TableName: tableName('consoleAuth'),
    Key: { item_key: itemKey },
    UpdateExpression: 'SET last_seen_at = :seen, expires_at = :exp, ip = :ip, user_agent = :ua',
    ConditionExpression: 'attribute_exists(item_key)',
    ExpressionAttributeValues: { ':seen': lastSeenAt, ':exp': expiresAt, ':ip': ip, ':ua': userAgent },
  });
}
