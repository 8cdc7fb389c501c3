import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import { newSourceKey, type Actor, type Source, type SourceSettings } from '../../records/source';

export async function getSource(sourceId: string): Promise<Source | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('sources'), Key: { source_id: sourceId }, ConsistentRead: true }));
  return out.Item as Source | undefined;
}

export async function putNewSource(source: Source): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: tableName('sources'), Item: source, ConditionExpression: 'attribute_not_exists(source_id)' }),
  );
}

/**
 * Applies `changes` only if the source exists and belongs to `actor` on its tenant, in one conditional
 * write, so ownership cannot change between the check and the update. Undefined when it is not owned.
 */
export async function updateOwnedSource(
  actor: Actor,
  sourceId: string,
  changes: Partial<SourceSettings>,
  now: number,
  /** Attributes the service maintains alongside the settings (the link-health schedule). */
  internal: { set?: Record<string, unknown>; remove?: readonly string[] } = {},
): Promise<Source | undefined> {
  const names: Record<string, string> = { '#tenant': 'tenant_id', '#owner': 'owner_id', '#updated': 'updated_at' };
  const values: Record<string, unknown> = { ':tenant': actor.tenantId, ':owner': actor.userId, ':updated': now };
  const sets = ['#updated = :updated'];
  Object.entries({ ...changes, ...internal.set }).forEach(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    sets.push(`#f${i} = :v${i}`);
  });
  const removes = (internal.remove ?? []).map((field, i) => {
    names[`#r${i}`] = field;
    return `#r${i}`;
  });
  const out = await updateIf({
    TableName: tableName('sources'),
    Key: { source_id: sourceId },
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: 'attribute_exists(source_id) AND #tenant = :tenant AND #owner = :owner',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW',
  });
  return out.written ? (out.output.Attributes as Source) : undefined;
}

/**
 * The source with its link secret and feed key, creating whichever is missing (sources created before links
 * were signed) in one conditional write that never replaces an existing one.
 */
export async function withSourceKeys(source: Source): Promise<Source & { link_secret: string; feed_key: string }> {
  if (source.link_secret && source.feed_key) return source as Source & { link_secret: string; feed_key: string };
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName('sources'),
      Key: { source_id: source.source_id },
      UpdateExpression: 'SET link_secret = if_not_exists(link_secret, :secret), feed_key = if_not_exists(feed_key, :key)',
      ConditionExpression: 'attribute_exists(source_id)',
      ExpressionAttributeValues: { ':secret': newSourceKey(), ':key': newSourceKey() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return out.Attributes as Source & { link_secret: string; feed_key: string };
}
