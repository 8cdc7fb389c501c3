/**
 * `sourceFeeds`: the published apps of a source in one item, so a feed read gets the source and its
 * catalogue in one BatchGetItem instead of a GetItem and a Query. Each published app is the attribute
 * `a<app id>` holding the app's stored fields; publish, unpublish and edits of a published app change it in
 * the same transaction as the app. `complete` is set only where the item is known to list every published
 * app (a new source, a rebuild); an operator import or an item grown past what one item may hold removes it,
 * and the feed then reads the apps themselves.
 */
import { PutCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { putIf } from '../conditional-write';
import { queryAll, scanItems } from '../paging';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';

const table = () => tableName('sourceFeeds');
const attribute = (appId: number) => `a${appId}`;

/** The app item as the apps table stores it (what the entry copies). */
export type StoredApp = Record<string, unknown> & { app_id: number };

/** A new source's item: complete, since the source has no published app yet. */
export async function putNewFeedDocument(sourceId: string): Promise<void> {
  await putIf({ TableName: table(), Item: { source_id: sourceId, complete: true, rev: 0 }, ConditionExpression: 'attribute_not_exists(source_id)' });
}

/** Lists (or replaces) a published app's entry. */
export function feedEntryPart(sourceId: string, app: StoredApp): TransactionPart {
  return transactionPart({
    Update: {
      TableName: table(),
      Key: { source_id: sourceId },
      UpdateExpression: 'SET #a = :app ADD rev :one',
      ExpressionAttributeNames: { '#a': attribute(app.app_id) },
      ExpressionAttributeValues: { ':app': entryOf(app), ':one': 1 },
    },
  });
}

/** Takes an app's entry out (unpublished). */
export function feedEntryRemovePart(sourceId: string, appId: number): TransactionPart {
  return transactionPart({
    Update: { TableName: table(), Key: { source_id: sourceId }, UpdateExpression: 'REMOVE #a ADD rev :one', ExpressionAttributeNames: { '#a': attribute(appId) }, ExpressionAttributeValues: { ':one': 1 } },
  });
}

/** The item no longer claims to list every published app: the feed reads the apps until it is rebuilt. */
export function feedIncompletePart(sourceId: string): TransactionPart {
  return transactionPart({ Update: { TableName: table(), Key: { source_id: sourceId }, UpdateExpression: 'REMOVE complete ADD rev :one', ExpressionAttributeValues: { ':one': 1 } } });
}

/** Internal keys of the app item stay out of the entry; everything the feed may show stays in. */
function entryOf(app: StoredApp): Record<string, unknown> {
  const { item_key: _key, guard_key: _guard, ...rest } = app;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
}

/** The published apps' stored items the document lists, or undefined when it does not list them all. */
export function listedApps(item: Record<string, unknown> | undefined): StoredApp[] | undefined {
  if (!item || item.complete !== true) return undefined;
  return Object.entries(item)
    .filter(([name]) => /^a\d+$/.test(name))
    .map(([, value]) => value as StoredApp);
}

/** DynamoDB refused the write because an item would pass 400 KB: the catalogue no longer fits one item. */
export function isItemTooLarge(error: unknown): boolean {
  const tooLarge = (message: string | undefined) => /item size/i.test(message ?? '') && /exceed/i.test(message ?? '');
  if (!(error instanceof Error)) return false;
  // Inside a transaction the refusal can come as a cancellation whose reason for that item says so.
  const reasons = (error as { CancellationReasons?: { Code?: string; Message?: string }[] }).CancellationReasons ?? [];
  return tooLarge(error.message) || reasons.some((reason) => reason.Code === 'ValidationError' && tooLarge(reason.Message));
}

/**
 * Writes the document anew from the apps themselves (a source from before, or after an import), on the
 * condition that nothing changed it meanwhile (its `rev`); true when written.
 */
export async function rebuildFeedDocument(sourceId: string): Promise<boolean> {
  const before = await documentClient().send(new GetCommand({ TableName: table(), Key: { source_id: sourceId }, ConsistentRead: true, ProjectionExpression: 'rev' }));
  const rev = before.Item?.rev as number | undefined;
  const apps = await queryAll({ TableName: tableName('apps'), KeyConditionExpression: 'source_id = :s AND begins_with(item_key, :p)', ExpressionAttributeValues: { ':s': sourceId, ':p': 'app#' }, ConsistentRead: true });
  const entries = Object.fromEntries(apps.filter((a) => a.publish_status === 'published').map((a) => [attribute(Number(a.app_id)), entryOf(a as StoredApp)]));
  try {
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { source_id: sourceId, complete: true, rev: (rev ?? 0) + 1, ...entries },
        ...(rev === undefined ? { ConditionExpression: 'attribute_not_exists(source_id)' } : { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': rev } }),
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException' || isItemTooLarge(error)) return false;
    throw error;
  }
}

/**
 * Rebuilds the feed copy of every source whose copy does not claim to be complete (sources from before the
 * one-read storage, or after an app import); how many it rebuilt. Safe to run again.
 */
export async function rebuildIncompleteFeedDocuments(): Promise<number> {
  let rebuilt = 0;
  for await (const source of scanItems({ TableName: tableName('sources'), ProjectionExpression: 'source_id' })) {
    const sourceId = String(source.source_id);
    const current = await documentClient().send(new GetCommand({ TableName: tableName('sourceFeeds'), Key: { source_id: sourceId }, ConsistentRead: true, ProjectionExpression: 'complete' }));
    if (current.Item?.complete === true) continue;
    if (await rebuildFeedDocument(sourceId)) rebuilt++;
  }
  return rebuilt;
}
