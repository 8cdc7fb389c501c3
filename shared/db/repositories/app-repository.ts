import { createHash } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../tables';
import { getSource } from './source-repository';
import type { App } from '../../domain/sources/app';
import type { Actor } from '../../domain/sources/source';

const appKey = (id: number) => `app#${String(id).padStart(10, '0')}`;

/** One guard item per published name+version pair makes "no duplicates" part of the publish transaction. */
const publishedGuardKey = (name: string, version: string) =>
  `published#${createHash('sha256').update(JSON.stringify([name, version])).digest('hex')}`;

interface AppItem extends Omit<App, 'id'> {
  item_key: string;
  app_id: number;
}

function fromItem(item: AppItem): App {
  return {
    id: item.app_id,
    source_id: item.source_id,
    name: item.name ?? '',
    version: item.version ?? '',
    download_url: item.download_url ?? '',
    status: item.status,
    publish_status: item.publish_status,
    created_at: item.created_at,
    published_at: item.published_at,
  };
}

export async function getApp(sourceId: string, appId: number): Promise<App | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('apps'), Key: { source_id: sourceId, item_key: appKey(appId) }, ConsistentRead: true }),
  );
  return out.Item ? fromItem(out.Item as AppItem) : undefined;
}

/**
 * Adds a draft with the next id of its source. The id counter and the app count live on the source item
 * and move in the same transaction as the new app, retried if another writer moved them first.
 */
export async function createDraft(draft: { sourceId: string; name: string; version: string; downloadUrl: string; now: number }): Promise<App> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const source = await getSource(draft.sourceId);
    if (!source) throw new Error(`Unknown source ${draft.sourceId}`);
    const current = (source as { next_app_id?: number }).next_app_id ?? 0;
    const id = current + 1;
    const item: AppItem = {
      source_id: draft.sourceId,
      item_key: appKey(id),
      app_id: id,
      name: draft.name,
      version: draft.version,
      download_url: draft.downloadUrl,
      status: 0,
      publish_status: 'draft',
      created_at: draft.now,
      published_at: undefined,
    };
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName('sources'),
                Key: { source_id: draft.sourceId },
                UpdateExpression: 'SET next_app_id = :next, app_count = if_not_exists(app_count, :zero) + :one',
                ConditionExpression: current === 0 ? 'attribute_not_exists(next_app_id) OR next_app_id = :zero' : 'next_app_id = :current',
                ExpressionAttributeValues: { ':next': id, ':one': 1, ':zero': 0, ...(current === 0 ? {} : { ':current': current }) },
              },
            },
            { Put: { TableName: tableName('apps'), Item: item, ConditionExpression: 'attribute_not_exists(item_key)' } },
          ],
        }),
      );
      return fromItem(item);
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
    }
  }
  throw new Error('Could not allocate an app id: too much contention');
}

export type PublishOutcome = 'published' | 'not_draft' | 'quota_exceeded' | 'duplicate_version' | 'not_owned';

/**
 * Publishes a draft atomically: the app leaves `draft` only once (two concurrent publishes → one wins),
 * the source's published count stays within the quota, and the name+version guard stays unique.
 */
export async function publishDraft(actor: Actor, app: App, quota: number, now: number): Promise<PublishOutcome> {
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName('apps'),
              Key: { source_id: app.source_id, item_key: appKey(app.id) },
              UpdateExpression: 'SET publish_status = :published, #status = :one, published_at = :now',
              ConditionExpression: 'publish_status = :draft',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':published': 'published', ':draft': 'draft', ':one': 1, ':now': now },
            },
          },
          {
            Update: {
              TableName: tableName('sources'),
              Key: { source_id: app.source_id },
              UpdateExpression: 'SET published_count = if_not_exists(published_count, :zero) + :one, updated_at = :now',
              ConditionExpression: 'tenant_id = :tenant AND owner_id = :owner AND (attribute_not_exists(published_count) OR published_count < :quota)',
              ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':now': now, ':tenant': actor.tenantId, ':owner': actor.userId, ':quota': quota },
            },
          },
          {
            Put: {
              TableName: tableName('apps'),
              Item: { source_id: app.source_id, item_key: publishedGuardKey(app.name, app.version), app_id: app.id },
              ConditionExpression: 'attribute_not_exists(item_key)',
            },
          },
        ],
      }),
    );
    return 'published';
  } catch (err) {
    if (!(err instanceof TransactionCanceledException)) throw err;
    const failed = (err.CancellationReasons ?? []).map((r) => r.Code === 'ConditionalCheckFailed');
    if (failed[0]) return 'not_draft';
    if (failed[1]) {
      const source = await getSource(app.source_id);
      return source && source.tenant_id === actor.tenantId && source.owner_id === actor.userId ? 'quota_exceeded' : 'not_owned';
    }
    if (failed[2]) return 'duplicate_version';
    throw err;
  }
}

/** Every app of a source, oldest first (the key prefix skips the guard items). */
export async function listApps(sourceId: string): Promise<App[]> {
  const apps: App[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName('apps'),
        KeyConditionExpression: 'source_id = :s AND begins_with(item_key, :p)',
        ExpressionAttributeValues: { ':s': sourceId, ':p': 'app#' },
        ExclusiveStartKey: start,
      }),
    );
    apps.push(...(out.Items ?? []).map((item) => fromItem(item as AppItem)));
    start = out.LastEvaluatedKey;
  } while (start);
  return apps;
}
