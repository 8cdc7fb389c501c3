/**
 * A source's life through the owner's API: created in the transaction that takes a source from the owner's
 * plan, listed page by page, deleted in the transaction that gives it back (and records the purge of what
 * it held), its drafts deleted one by one.
 */
import { DeleteCommand, GetCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { batchDelete } from '../batch';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import type { TableKey } from '../tables';
import { transactWrite, transactionPart, type TransactionOutcome } from '../transactions';
import { appKey, fromItem, type AppItem } from './app-repository';
import { sourceSlotReturnPart, sourceSlotTakePart } from './subscription-repository';
import type { App } from '../../records/app';
import type { Actor, Source } from '../../records/source';

/** A source created through the API carries this mark: its deletion gives its place in the plan back. */
export const PLAN_COUNTED = 'plan_counted';

/**
 * Stores the new source and takes one source from the owner's plan in one transaction. Not ok (index 0)
 * when the owner has no running subscription on the tenant or its sources are all taken.
 */
export function createCountedSource(source: Source, extra: Record<string, unknown>, now: number): Promise<TransactionOutcome> {
  return transactWrite([
    sourceSlotTakePart(source.owner_id, source.tenant_id, now),
    transactionPart({ Put: { TableName: tableName('sources'), Item: { ...source, ...extra, [PLAN_COUNTED]: true }, ConditionExpression: 'attribute_not_exists(source_id)' } }),
  ]);
}

export interface Page<T> {
  items: T[];
  /** Where the next page starts; undefined on the last page. */
  next: string | undefined;
}

/**
 * The actor's sources on the actor's tenant, by id, `limit` at a time after the source id `after`. The owner
 * index holds the owner's sources on every tenant: the others are skipped without counting toward the page.
 */
export async function listOwnedSources(actor: Actor, limit: number, after: string | undefined): Promise<Page<Source>> {
  const items: Source[] = [];
  let start: Record<string, unknown> | undefined = after === undefined ? undefined : { owner_id: actor.userId, source_id: after };
  do {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName('sources'),
        IndexName: 'by-owner',
        KeyConditionExpression: 'owner_id = :o',
        FilterExpression: 'tenant_id = :t',
        ExpressionAttributeValues: { ':o': actor.userId, ':t': actor.tenantId },
        Limit: limit - items.length,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...((out.Items ?? []) as Source[]));
    start = out.LastEvaluatedKey;
  } while (start && items.length < limit);
  // The index is eventually consistent and projects every attribute; a full page may have more after it.
  return { items, next: start && items.length > 0 ? items[items.length - 1]!.source_id : undefined };
}

/**
 * Deletes the source if it is still the actor's, gives its place back to the plan when it took one, and
 * records that its apps, protection and health items are to be purged, all in one transaction. False when
 * the source was no longer there (or no longer the actor's).
 */
export async function deleteOwnedSource(actor: Actor, source: Source & { [PLAN_COUNTED]?: boolean }, now: number): Promise<boolean> {
  const outcome = await transactWrite([
    transactionPart({
      Delete: {
        TableName: tableName('sources'),
        Key: { source_id: source.source_id },
        ConditionExpression: 'tenant_id = :t AND owner_id = :o',
        ExpressionAttributeValues: { ':t': actor.tenantId, ':o': actor.userId },
      },
    }),
    transactionPart({ Put: { TableName: tableName('sourcePurges'), Item: { source_id: source.source_id, tenant_id: source.tenant_id, deleted_at: now } } }),
    ...(source[PLAN_COUNTED] === true ? [sourceSlotReturnPart(actor.userId)] : []),
  ]);
  return outcome.ok;
}

/** The tables holding a source's items, each one partition per source, and the key of their items. */
const HELD: ReadonlyArray<{ table: TableKey; sortKey: string }> = [
  { table: 'apps', sortKey: 'item_key' },
  { table: 'sourceProtection', sortKey: 'item_key' },
  { table: 'linkHealth', sortKey: 'app_id' },
];

/**
 * Removes what a deleted source held, a page at a time until done or `deadline` (epoch ms) passes. True
 * when nothing is left, and then the purge record goes too.
 */
export async function purgeSourceItems(sourceId: string, deadline: number): Promise<boolean> {
  for (const { table, sortKey } of HELD) {
    for (;;) {
      if (Date.now() > deadline) return false;
      const out = await documentClient().send(
        new QueryCommand({
          TableName: tableName(table),
          KeyConditionExpression: 'source_id = :s',
          ExpressionAttributeValues: { ':s': sourceId },
          ProjectionExpression: '#k',
          ExpressionAttributeNames: { '#k': sortKey },
          Limit: 250,
        }),
      );
      const keys = (out.Items ?? []).map((item) => ({ source_id: sourceId, [sortKey]: item[sortKey] }));
      if (keys.length) await batchDelete(tableName(table), keys);
      if (!out.LastEvaluatedKey) break;
    }
  }
  await documentClient().send(new DeleteCommand({ TableName: tableName('sourcePurges'), Key: { source_id: sourceId } }));
  return true;
}

/** Sources deleted whose purge a request did not finish (the purge job's work). */
export async function* pendingPurges(): AsyncGenerator<string> {
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(new ScanCommand({ TableName: tableName('sourcePurges'), ProjectionExpression: 'source_id', ...(start ? { ExclusiveStartKey: start } : {}) }));
    for (const item of out.Items ?? []) yield String(item.source_id);
    start = out.LastEvaluatedKey;
  } while (start);
}

export async function isPurgePending(sourceId: string): Promise<boolean> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('sourcePurges'), Key: { source_id: sourceId }, ConsistentRead: true }));
  return out.Item !== undefined;
}

/** The source's apps by id, `limit` at a time after app id `after`, only those in `status` when given. */
export async function listSourceApps(sourceId: string, options: { limit: number; after: number | undefined; status: App['publish_status'] | undefined }): Promise<Page<App>> {
  const apps: App[] = [];
  let start: Record<string, unknown> | undefined = options.after === undefined ? undefined : { source_id: sourceId, item_key: appKey(options.after) };
  do {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName('apps'),
        KeyConditionExpression: 'source_id = :s AND begins_with(item_key, :p)',
        ...(options.status ? { FilterExpression: 'publish_status = :st' } : {}),
        ExpressionAttributeValues: { ':s': sourceId, ':p': 'app#', ...(options.status ? { ':st': options.status } : {}) },
        Limit: options.limit - apps.length,
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    apps.push(...(out.Items ?? []).map((item) => fromItem(item as AppItem)));
    start = out.LastEvaluatedKey;
  } while (start && apps.length < options.limit);
  return { items: apps, next: start && apps.length > 0 ? String(apps[apps.length - 1]!.id) : undefined };
}

export type DeleteDraftOutcome = 'deleted' | 'not_draft' | 'not_owned';

/** Deletes a draft of the actor's source in one transaction with the source's app count (and any stale health record). */
export async function deleteDraft(actor: Actor, sourceId: string, appId: number): Promise<DeleteDraftOutcome> {
  const outcome = await transactWrite([
    transactionPart({
      Delete: {
        TableName: tableName('apps'),
        Key: { source_id: sourceId, item_key: appKey(appId) },
        ConditionExpression: 'publish_status = :draft',
        ExpressionAttributeValues: { ':draft': 'draft' },
      },
    }),
    transactionPart({
      Update: {
        TableName: tableName('sources'),
        Key: { source_id: sourceId },
        UpdateExpression: 'SET app_count = app_count - :one',
        ConditionExpression: 'tenant_id = :t AND owner_id = :o AND app_count > :zero',
        ExpressionAttributeValues: { ':t': actor.tenantId, ':o': actor.userId, ':one': 1, ':zero': 0 },
      },
    }),
    transactionPart({ Delete: { TableName: tableName('linkHealth'), Key: { source_id: sourceId, app_id: appId } } }),
  ]);
  if (outcome.ok) return 'deleted';
  return outcome.failed.includes(0) ? 'not_draft' : 'not_owned';
}
