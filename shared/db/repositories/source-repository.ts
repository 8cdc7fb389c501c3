import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import { newSourceKey, type Actor, type Source, type SourceSettings } from '../../records/source';
import { transactWrite, type TransactionPart } from '../transactions';
import type { TokenSideRead } from './user-repository';

/**
 * What update source answers and checks, read with the token (`readWithToken`): the owner and tenant, and the
 * fields its answer shows (`sourceView`).
 */
export const SOURCE_ANSWER_FIELDS = ['source_id', 'tenant_id', 'owner_id', 'name', 'message', 'encrypt_enabled', 'app_count'] as const;

/** The fields of the answer another write could change meanwhile (the rest name the source and its owner). */
const ANSWERED_SETTINGS = ['name', 'message', 'encrypt_enabled', 'app_count'] as const;

/** The read of `SOURCE_ANSWER_FIELDS` for a request to make in the same round trip as its token. */
export function sourceAnswerRead(sourceId: string): TokenSideRead {
  return { table: 'sources', key: { source_id: sourceId }, attributes: SOURCE_ANSWER_FIELDS };
}

/** A source as `sourceAnswerRead` reads it. */
export type SourceAsRead = Pick<Source, (typeof SOURCE_ANSWER_FIELDS)[number]>;

/**
 * Applies `changes` to a source the caller read (`read`, checked to be the actor's before), in one
 * `TransactWriteItems` (so a request counted in its transaction carries its count in it: shared/db/write-gate.ts).
 * A transaction returns no values, so the answer is `read` with the changes, and the write is conditioned on
 * every answered field it does not set still being what was read (and the source still the actor's): not
 * written when that no longer holds (nothing changed: read it again and retry). `condition`, a part of another
 * repository (the owner's right to write), rides first in the same transaction: when it fails nothing is
 * written and `seen` is the item as it saw it (raw attribute values, undefined when absent).
 */
export async function updateSourceAsRead(
  actor: Actor,
  read: SourceAsRead,
  changes: Partial<SourceSettings>,
  now: number,
  internal: { set?: Record<string, unknown>; remove?: readonly string[] } = {},
  condition?: TransactionPart,
): Promise<{ written: true } | { written: false; conditionFailed: boolean; seen?: Record<string, unknown> | undefined }> {
  const { names, values, update } = settingsUpdate(actor, changes, now, internal);
  const unchanged = ANSWERED_SETTINGS.filter((field) => !(field in changes)).map((field, i) => {
    names[`#k${i}`] = field;
    const value = read[field];
    if (value === undefined) return `attribute_not_exists(#k${i})`;
    values[`:k${i}`] = value;
    return `#k${i} = :k${i}`;
  });
  const outcome = await transactWrite(
    [
      ...(condition ? [condition] : []),
      {
        Update: {
          TableName: tableName('sources'),
          Key: { source_id: read.source_id },
          UpdateExpression: update,
          ConditionExpression: ['attribute_exists(source_id) AND #tenant = :tenant AND #owner = :owner', ...unchanged].join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    ],
    { conflicts: 'report' },
  );
  if (outcome.ok) return { written: true };
  // The owner's condition decides first: it was judged before the source when it was read apart.
  const conditionFailed = condition !== undefined && outcome.failed.includes(0);
  return { written: false, conditionFailed, seen: conditionFailed ? outcome.returned?.[0] : undefined };
}

/** The update expression of a settings change, conditioned on the owner by the caller (names and values to extend). */
function settingsUpdate(actor: Actor, changes: Partial<SourceSettings>, now: number, internal: { set?: Record<string, unknown>; remove?: readonly string[] }) {
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
  return { names, values, update: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}` };
}

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
  const { names, values, update } = settingsUpdate(actor, changes, now, internal);
  const out = await updateIf({
    TableName: tableName('sources'),
    Key: { source_id: sourceId },
    UpdateExpression: update,
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
