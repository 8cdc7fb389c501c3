import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll } from '../batch';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { queryAll } from '../paging';
import { tableName } from '../table-names';
import { transactWrite } from '../transactions';
import { getSource } from './source-repository';
import { feedEntryPart, feedEntryRemovePart, feedIncompletePart, isItemTooLarge, type StoredApp } from './feed-document-repository';
import { emptyMetadata, type App, type AppMetadata } from '../../records/app';
import type { Actor, Source } from '../../records/source';
import type { IpaInspection } from '../../records/ipa-inspection';

export const appKey = (id: number) => `app#${String(id).padStart(10, '0')}`;

/**
 * One guard item per published bundle identifier + version makes "no duplicate release" part of the publish
 * transaction. The app remembers its guard's key, so unpublishing frees exactly that pair.
 */
export const publishedGuardKey = (bundleIdentifier: string, version: string) =>
  `published#${createHash('sha256').update(JSON.stringify(['bundle', bundleIdentifier, version])).digest('hex')}`;

/** Guards written before apps had bundle identifiers were keyed by name + version. */
const legacyGuardKey = (name: string, version: string) => `published#${createHash('sha256').update(JSON.stringify([name, version])).digest('hex')}`;

export interface AppItem extends Partial<AppMetadata> {
  source_id: string;
  item_key: string;
  app_id: number;
  status: number;
  publish_status: App['publish_status'];
  created_at: number;
  published_at?: number | undefined;
  guard_key?: string;
  ipa?: IpaInspection;
  revision?: number;
}

/** An app as the domain sees it, from its stored item. */
export function fromItem(item: AppItem): App {
  const defaults = emptyMetadata();
  return {
    ...defaults,
    ...Object.fromEntries(Object.entries(item).filter(([k, v]) => Object.hasOwn(defaults, k) && v !== undefined && v !== null)),
    id: item.app_id,
    source_id: item.source_id,
    status: item.status,
    publish_status: item.publish_status,
    created_at: item.created_at,
    published_at: item.published_at,
    ...(item.ipa ? { ipa: item.ipa } : {}),
    ...(item.revision !== undefined ? { revision: Number(item.revision) } : {}),
  };
}

function guardOf(item: AppItem): string {
  return item.guard_key ?? legacyGuardKey(item.name ?? '', item.version ?? '');
}

async function getItem(sourceId: string, appId: number): Promise<AppItem | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('apps'), Key: { source_id: sourceId, item_key: appKey(appId) }, ConsistentRead: true }),
  );
  return out.Item as AppItem | undefined;
}

/** The app and its source in one BatchGetItem, both read strongly consistent: publishing and editing need both. */
/**
 * The app and its source in one BatchGetItem; with `subscriptionOf`, that user's running subscription in the
 * same call (publish judges the owner's plan without a read of its own).
 */
export async function getAppWithSource(
  sourceId: string,
  appId: number,
  subscriptionOf?: string,
): Promise<{ source: Source | undefined; app: App | undefined; subscription?: Record<string, unknown> | undefined }> {
  const [sources, apps, subscriptions] = [tableName('sources'), tableName('apps'), tableName('subscriptions')];
  const found = await batchGetAll({
    [sources]: { Keys: [{ source_id: sourceId }], ConsistentRead: true },
    [apps]: { Keys: [{ source_id: sourceId, item_key: appKey(appId) }], ConsistentRead: true },
    ...(subscriptionOf ? { [subscriptions]: { Keys: [{ user_id: subscriptionOf, item_key: 'current' }], ConsistentRead: true } } : {}),
  });
  const item = found[apps]?.[0] as AppItem | undefined;
  return { source: found[sources]?.[0] as Source | undefined, app: item ? fromItem(item) : undefined, subscription: found[subscriptions]?.[0] };
}

export async function getApp(sourceId: string, appId: number): Promise<App | undefined> {
  const item = await getItem(sourceId, appId);
  return item ? fromItem(item) : undefined;
}

/** DynamoDB keeps no undefined values: an unknown size is simply absent. */
function storable(metadata: Partial<AppMetadata>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata).filter(([, v]) => v !== undefined));
}

export type CreateDraftOutcome = { created: App } | { refused: 'quota_exceeded' | 'not_owned' };

/**
 * Adds a draft with the next id of its source. The id counter and the app count live on the source item
 * and move in the same transaction as the new app, retried if another writer moved them first. With
 * `quota`, the source may hold at most that many apps; with `actor`, it must be that actor's.
 */
export async function createDraft(draft: { sourceId: string; metadata: Partial<AppMetadata>; now: number; quota?: number; actor?: Actor }): Promise<CreateDraftOutcome> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const source = await getSource(draft.sourceId);
    if (!source) throw new Error(`Unknown source ${draft.sourceId}`);
    if (draft.actor && (source.tenant_id !== draft.actor.tenantId || source.owner_id !== draft.actor.userId)) return { refused: 'not_owned' };
    if (draft.quota !== undefined && (source.app_count ?? 0) >= draft.quota) return { refused: 'quota_exceeded' };
    const current = (source as { next_app_id?: number }).next_app_id ?? 0;
    const id = current + 1;
    const item = {
      ...storable({ ...emptyMetadata(), ...draft.metadata }),
      source_id: draft.sourceId,
      item_key: appKey(id),
      app_id: id,
      status: 0,
      publish_status: 'draft',
      created_at: draft.now,
    } as AppItem;
    const conditions = [current === 0 ? '(attribute_not_exists(next_app_id) OR next_app_id = :zero)' : 'next_app_id = :current'];
    const values: Record<string, unknown> = { ':next': id, ':one': 1, ':zero': 0, ...(current === 0 ? {} : { ':current': current }) };
    if (draft.quota !== undefined) {
      conditions.push('(attribute_not_exists(app_count) OR app_count < :quota)');
      values[':quota'] = draft.quota;
    }
    const outcome = await transactWrite(
      [
        {
          Update: {
            TableName: tableName('sources'),
            Key: { source_id: draft.sourceId },
            UpdateExpression: 'SET next_app_id = :next, app_count = if_not_exists(app_count, :zero) + :one',
            ConditionExpression: conditions.join(' AND '),
            ExpressionAttributeValues: values,
          },
        },
        { Put: { TableName: tableName('apps'), Item: item, ConditionExpression: 'attribute_not_exists(item_key)' } },
      ],
      { conflicts: 'report' },
    );
    if (outcome.ok) return { created: fromItem(item) };
  }
  throw new Error('Could not allocate an app id: too much contention');
}

export type PublishOutcome = 'published' | 'not_draft' | 'draft_changed' | 'quota_exceeded' | 'duplicate_version' | 'not_owned';

/**
 * Publishes a draft atomically: the app leaves `draft` only once (two concurrent publishes → one wins),
 * the source's published count stays within the quota, and the bundle identifier + version guard stays
 * unique. `size` is stored with it when publish had to look it up.
 */
export async function publishDraft(actor: Actor, app: App, quota: number, now: number, inspection?: IpaInspection): Promise<PublishOutcome> {
  const guardKey = publishedGuardKey(app.bundle_identifier, app.version);
  // A fresh inspection is stored by the publish itself (and in the feed's copy): no extra round trip.
  const ipaSet = inspection ? ', ipa = :ipa' : '';
  const published = { ...storedItem({ ...app, publish_status: 'published', status: 1, published_at: now }), ...(inspection ? { ipa: storableInspection(inspection) } : {}) };
  // The feed's copy of the source's catalogue moves with it; should it outgrow one item, it stops claiming to be complete.
  const write = (feedPart: ReturnType<typeof feedEntryPart>) => transactWrite([
    {
      Update: {
        TableName: tableName('apps'),
        Key: { source_id: app.source_id, item_key: appKey(app.id) },
        UpdateExpression: `SET publish_status = :published, #status = :one, published_at = :now, guard_key = :guard, #size = :size${ipaSet}`,
        // Still a draft, and still the draft publish read: an edit since (during the download) publishes nothing.
        ConditionExpression: `publish_status = :draft AND ${app.revision === undefined ? 'attribute_not_exists(#rev)' : '#rev = :rev'}`,
        ExpressionAttributeNames: { '#status': 'status', '#size': 'size', '#rev': 'revision' },
        ExpressionAttributeValues: {
          ':published': 'published',
          ':draft': 'draft',
          ':one': 1,
          ':now': now,
          ':guard': guardKey,
          ':size': app.size ?? 0,
          ...(inspection ? { ':ipa': storableInspection(inspection) } : {}),
          ...(app.revision === undefined ? {} : { ':rev': app.revision }),
        },
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
        Item: { source_id: app.source_id, item_key: guardKey, app_id: app.id },
        ConditionExpression: 'attribute_not_exists(item_key)',
      },
    },
    feedPart,
  ]);
  let outcome;
  try {
    outcome = await write(feedEntryPart(app.source_id, published));
  } catch (error) {
    if (!isItemTooLarge(error)) throw error;
    outcome = await write(feedIncompletePart(app.source_id));
  }
  if (outcome.ok) return 'published';
  if (outcome.failed.includes(0)) return (await getItem(app.source_id, app.id))?.publish_status === 'draft' ? 'draft_changed' : 'not_draft';
  if (outcome.failed.includes(1)) {
    const source = await getSource(app.source_id);
    return source && source.tenant_id === actor.tenantId && source.owner_id === actor.userId ? 'quota_exceeded' : 'not_owned';
  }
  return 'duplicate_version';
}

/**
 * Changes fields of an app on the condition that it is still in the publish state the caller checked the
 * change against (a draft may change anything; a published app only its presentation). Undefined when the
 * app is gone or its state moved meanwhile.
 */
export async function updateAppFields(app: App, changes: Partial<AppMetadata>, now: number): Promise<App | undefined> {
  const names: Record<string, string> = { '#state': 'publish_status', '#updated': 'updated_at', '#rev': 'revision' };
  const values: Record<string, unknown> = { ':state': app.publish_status, ':updated': now, ':one': 1 };
  const sets = ['#updated = :updated'];
  const removes: string[] = [];
  Object.entries(changes).forEach(([field, value], i) => {
    names[`#f${i}`] = field;
    if (value === undefined) {
      removes.push(`#f${i}`);
      return;
    }
    values[`:v${i}`] = value;
    sets.push(`#f${i} = :v${i}`);
  });
  const out = await updateIf({
    TableName: tableName('apps'),
    Key: { source_id: app.source_id, item_key: appKey(app.id) },
    // Every edit counts in `revision`: a publish in flight then sees the draft changed under it.
    UpdateExpression: `SET ${sets.join(', ')} ADD #rev :one${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: 'attribute_exists(item_key) AND #state = :state',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW',
  });
  if (!out.written) return undefined;
  const item = out.output.Attributes as AppItem;
  if (item.publish_status === 'published') await refreshFeedEntry(item);
  return fromItem(item);
}

/**
 * A published app's edit reaches the feed's copy: only an entry that is there (the app is still listed) and
 * not newer than this edit is replaced, so a late write never re-lists an unpublished app or undoes a later edit.
 */
async function refreshFeedEntry(item: AppItem): Promise<void> {
  try {
    await refreshListedEntry(item);
  } catch (error) {
    if (!isItemTooLarge(error)) throw error;
    // The edit no longer fits beside the rest of the catalogue: the feed reads the apps themselves from now on.
    await transactWrite([feedIncompletePart(item.source_id)]);
  }
}

async function refreshListedEntry(item: AppItem): Promise<void> {
  await updateIf({
    TableName: tableName('sourceFeeds'),
    Key: { source_id: item.source_id },
    UpdateExpression: 'SET #a = :app ADD rev :one',
    ConditionExpression: 'attribute_exists(#a) AND (attribute_not_exists(#a.updated_at) OR #a.updated_at <= :updated)',
    ExpressionAttributeNames: { '#a': `a${item.app_id}` },
    ExpressionAttributeValues: { ':app': Object.fromEntries(Object.entries(item).filter(([k, v]) => v !== undefined && k !== 'item_key' && k !== 'guard_key')), ':one': 1, ':updated': (item as { updated_at?: number }).updated_at ?? 0 },
  });
}

/** An app as the apps table stores it. */
function storedItem(app: App): StoredApp {
  const { id, source_id, status, publish_status, created_at, published_at, ...metadata } = app;
  return { ...storable(metadata), source_id, item_key: appKey(id), app_id: id, status, publish_status, created_at, ...(published_at === undefined ? {} : { published_at }) };
}

/** The app a stored item (or a feed entry, which copies one) describes. */
export const appFromItem = (item: Record<string, unknown>): App => fromItem(item as unknown as AppItem);

export type UnpublishOutcome = { unpublished: App } | { refused: 'not_published' | 'not_owned' };

/** Takes a published app out of the feed in one transaction: back to draft, its release guard freed, the count down. */
export async function unpublishApp(actor: Actor, sourceId: string, appId: number, now: number): Promise<UnpublishOutcome | undefined> {
  const item = await getItem(sourceId, appId);
  if (!item) return undefined;
  if (item.publish_status !== 'published') return { refused: 'not_published' };
  const outcome = await transactWrite([
    {
      Update: {
        TableName: tableName('apps'),
        Key: { source_id: sourceId, item_key: item.item_key },
        UpdateExpression: 'SET publish_status = :draft, #status = :zero, updated_at = :now REMOVE published_at, guard_key',
        ConditionExpression: 'publish_status = :published',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':draft': 'draft', ':published': 'published', ':zero': 0, ':now': now },
      },
    },
    {
      Update: {
        TableName: tableName('sources'),
        Key: { source_id: sourceId },
        UpdateExpression: 'SET published_count = published_count - :one, updated_at = :now',
        ConditionExpression: 'tenant_id = :tenant AND owner_id = :owner AND published_count > :zero',
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':now': now, ':tenant': actor.tenantId, ':owner': actor.userId },
      },
    },
    // Unconditional: only the first two items can refuse.
    { Delete: { TableName: tableName('apps'), Key: { source_id: sourceId, item_key: guardOf(item) } } },
    feedEntryRemovePart(sourceId, appId),
  ]);
  if (!outcome.ok) return { refused: outcome.failed.includes(0) ? 'not_published' : 'not_owned' };
  const { published_at: _published, guard_key: _guard, ...rest } = item;
  return { unpublished: fromItem({ ...rest, publish_status: 'draft', status: 0 }) };
}

/** Every app of a source, oldest first (the key prefix skips the guard items). */
export async function listApps(sourceId: string): Promise<App[]> {
  const items = await queryAll({ TableName: tableName('apps'), KeyConditionExpression: 'source_id = :s AND begins_with(item_key, :p)', ExpressionAttributeValues: { ':s': sourceId, ':p': 'app#' } });
  return items.map((item) => fromItem(item as AppItem));
}

/** DynamoDB keeps no undefined values: unknown validators are left out. */
function storableInspection(inspection: IpaInspection): Record<string, unknown> {
  return JSON.parse(JSON.stringify(inspection)) as Record<string, unknown>;
}

/**
 * Stores an inspection on the app, provided the app still points at the URL that was read (an edit meanwhile
 * makes this one stale). False when it did not.
 */
export async function storeInspection(sourceId: string, appId: number, inspection: IpaInspection): Promise<boolean> {
  const out = await updateIf({
    TableName: tableName('apps'),
    Key: { source_id: sourceId, item_key: appKey(appId) },
    UpdateExpression: 'SET ipa = :ipa',
    ConditionExpression: 'attribute_exists(item_key) AND download_url = :url',
    ExpressionAttributeValues: { ':ipa': storableInspection(inspection), ':url': inspection.url },
  });
  return out.written;
}
