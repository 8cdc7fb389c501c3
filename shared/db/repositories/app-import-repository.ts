/**
 * Apps brought over in bulk from a reseller's panel (operator import). Each imported app leaves an import
 * marker beside it in its source's partition (`import#<hash of the row's key>` → the app id), written in the
 * same transaction as the app, so a re-run or a resumed run finds the rows it already wrote.
 *
 * Exports:
 * - `findImportedApps(sourceId, keys)` — which row keys already have an app: key → app id (batched reads).
 * - `putImportedApps(sourceId, apps, now)` — one `TransactWriteItems` for up to `IMPORT_TRANSACTION_APPS`
 *   apps: the source's id counter and counts (conditional on the counter as read), each app (new key), its
 *   marker (new) and, when published, its release guard (bundle identifier + version unused). A row whose
 *   marker or guard is taken is set aside with the reason and the rest retried, so every app is written
 *   whole (app, marker, guard, counts) or not at all.
 */
import { createHash } from 'node:crypto';
import { batchGet } from '../batch';
import { tableName } from '../table-names';
import { transactWrite, type TransactItem } from '../transactions';
import { appKey, publishedGuardKey } from './app-repository';
import { feedIncompletePart } from './feed-document-repository';
import { getSource } from './source-repository';
import type { AppMetadata } from '../../records/app';

/** 1 counter update + 3 items per app + the feed copy's marker stays within DynamoDB's 100 items per transaction. */
export const IMPORT_TRANSACTION_APPS = 30;
const MAX_ATTEMPTS = 10;

export const importMarkerKey = (rowKey: string) => `import#${createHash('sha256').update(rowKey).digest('hex')}`;

export interface ImportedApp {
  /** The row's idempotency key (the panel's row id, or name + version). */
  rowKey: string;
  metadata: AppMetadata;
  published: boolean;
  /** Publish time for published apps, creation time for all. */
  at: number;
  /** Extra attributes kept on the app item as they were in the panel. */
  extra?: Record<string, unknown>;
}

export type ImportedAppOutcome = { app_id: number } | { refused: 'already_imported' | 'duplicate_version' };

export async function findImportedApps(sourceId: string, keys: readonly string[]): Promise<Map<string, number>> {
  const byMarker = new Map(keys.map((key) => [importMarkerKey(key), key]));
  const items = await batchGet(tableName('apps'), [...byMarker.keys()].map((item_key) => ({ source_id: sourceId, item_key })));
  return new Map(items.map((item) => [byMarker.get(String(item.item_key))!, Number(item.app_id)]));
}

/** Outcomes in the order of `apps`. */
export async function putImportedApps(sourceId: string, apps: readonly ImportedApp[], now: number): Promise<ImportedAppOutcome[]> {
  if (apps.length > IMPORT_TRANSACTION_APPS) throw new Error(`at most ${IMPORT_TRANSACTION_APPS} apps per transaction`);
  const outcomes: (ImportedAppOutcome | undefined)[] = apps.map(() => undefined);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const pending = apps.map((app, i) => ({ app, i })).filter(({ i }) => outcomes[i] === undefined);
    if (pending.length === 0) break;
    const source = await getSource(sourceId);
    if (!source) throw new Error(`Unknown source ${sourceId}`);
    const current = (source as { next_app_id?: number }).next_app_id ?? 0;
    const published = pending.filter(({ app }) => app.published).length;
    // The row and role of each item after the counter (owners[k] is item k + 1), to read failed conditions back.
    const owners: Array<{ i: number; role: 'app' | 'marker' | 'guard' }> = [];
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName('sources'),
          Key: { source_id: sourceId },
          UpdateExpression: 'SET next_app_id = :next, app_count = if_not_exists(app_count, :zero) + :count, published_count = if_not_exists(published_count, :zero) + :published, updated_at = :now',
          ConditionExpression: current === 0 ? '(attribute_not_exists(next_app_id) OR next_app_id = :zero)' : 'next_app_id = :current',
          ExpressionAttributeValues: { ':next': current + pending.length, ':zero': 0, ':count': pending.length, ':published': published, ':now': now, ...(current === 0 ? {} : { ':current': current }) },
        },
      },
    ];
    pending.forEach(({ app, i }, n) => {
      const id = current + 1 + n;
      const guard = app.published ? publishedGuardKey(app.metadata.bundle_identifier, app.metadata.version) : undefined;
      const stored = Object.fromEntries(Object.entries({ ...app.extra, ...app.metadata }).filter(([, v]) => v !== undefined));
      items.push({
        Put: {
          TableName: tableName('apps'),
          Item: {
            ...stored,
            source_id: sourceId,
            item_key: appKey(id),
            app_id: id,
            status: app.published ? 1 : 0,
            publish_status: app.published ? 'published' : 'draft',
            created_at: app.at,
            ...(guard ? { published_at: app.at, guard_key: guard } : {}),
          },
          ConditionExpression: 'attribute_not_exists(item_key)',
        },
      });
      owners.push({ i, role: 'app' });
      items.push({ Put: { TableName: tableName('apps'), Item: { source_id: sourceId, item_key: importMarkerKey(app.rowKey), app_id: id }, ConditionExpression: 'attribute_not_exists(item_key)' } });
      owners.push({ i, role: 'marker' });
      if (guard) {
        items.push({ Put: { TableName: tableName('apps'), Item: { source_id: sourceId, item_key: guard, app_id: id }, ConditionExpression: 'attribute_not_exists(item_key)' } });
        owners.push({ i, role: 'guard' });
      }
    });
    // Imported releases are not in the feed's copy of the catalogue: it stops claiming to be complete (the
    // feed reads the apps themselves until `migrate` rebuilds it). Last, so it has no owner in `owners`.
    if (published > 0) items.push(feedIncompletePart(sourceId));
    const outcome = await transactWrite(items, { conflicts: 'report' });
    if (outcome.ok) {
      pending.forEach(({ i }, n) => (outcomes[i] = { app_id: current + 1 + n }));
      break;
    }
    // A taken marker means an earlier (or concurrent) run wrote the row; a taken guard is a release the
    // source already publishes. Either way that row leaves the batch; a moved counter just retries.
    for (const index of outcome.failed) {
      const owner = owners[index - 1];
      if (owner?.role === 'marker') outcomes[owner.i] = { refused: 'already_imported' };
      else if (owner?.role === 'guard' && outcomes[owner.i] === undefined) outcomes[owner.i] = { refused: 'duplicate_version' };
    }
  }
  if (outcomes.some((o) => o === undefined)) throw new Error('Could not write the imported apps: too much contention on the source');
  return outcomes as ImportedAppOutcome[];
}
