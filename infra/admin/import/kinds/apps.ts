/**
 * `import --apps FILE --source S --user U`: a source panel's apps (its `category` table) as apps of one of the
 * user's sources, keeping the panel's publish state.
 *
 * Every value is checked with the same field schemas as the app management endpoints. What panels never had
 * gets a default: the bundle identifier `panel.<source id>.<row id>` (rows without an id: a hash of the name,
 * so the versions of one app share it), the source's name as developer name, and for published rows without a
 * size the `Content-Length` publishing would look up. A published row still lacking what publishing needs (an
 * icon, a size no lookup could find) is imported as a draft for the owner to complete, with a warning.
 *
 * Key: the panel's row id (else name + version), kept in an import marker written with the app.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { findImportedApps, IMPORT_TRANSACTION_APPS, putImportedApps, type ImportedApp } from '../../../../shared/db/repositories/app-import-repository';
import { emptyMetadata, missingForPublish, type AppMetadata } from '../../../../shared/records/app';
import { ownValue } from '../../../../shared/own-record';
import { appBit, appSize, appText, appUrl, bundleIdentifier, osVersion, tintColor } from '../../../../shared/validation/app-fields';
import { lookUpDownloadSize } from '../../../../shared/domain/sources/size-lookup';
import type { Source } from '../../../../shared/records/source';
import type { CommitResult, ImportKind, KeyedRow, Prepared, RowError } from '../runner';
import type { TableRow } from '../table-file';
import { parsePanelTime } from '../time-cells';
import { convertedCell, rowErrors } from '../zod-rows';

export const appLayout = {
  columns: [
    { name: 'id', aliases: ['app_id', 'appid'] },
    { name: 'name', aliases: ['title', 'app_name', 'appname'] },
    { name: 'version', aliases: ['ver', 'version_name'] },
    { name: 'download_url', aliases: ['downloadurl', 'down_url', 'downurl', 'url', 'ipa_url'] },
    { name: 'icon_url', aliases: ['iconurl', 'icon', 'img', 'pic'] },
    { name: 'tint_color', aliases: ['tintcolor', 'color'] },
    { name: 'size', aliases: ['file_size', 'filesize'] },
    { name: 'description', aliases: ['localized_description', 'desc', 'content'] },
    { name: 'lock', aliases: ['is_lock', 'islock'] },
    { name: 'type', aliases: ['app_type', 'apptype'] },
    { name: 'updated_at', aliases: ['update_time', 'updatetime', 'version_date', 'versiondate', 'addtime', 'time'] },
    { name: 'status', aliases: ['zt', 'state', 'show'] },
    { name: 'sort', aliases: ['order', 'weight', 'order_weight', 'sort_order', 'px', 'paixu'] },
    { name: 'bundle_identifier', aliases: ['bundleid', 'bundle_id'] },
    { name: 'developer_name', aliases: ['developer', 'developername'] },
    { name: 'version_description', aliases: ['versiondescription', 'changelog'] },
    { name: 'min_os_version', aliases: ['minimum_os_version', 'min_ios'] },
  ],
  headerMarkers: ['name', 'version'],
} as const;

/** What the operator reads when a field's schema refuses a value. */
const REASONS: Record<string, string> = {
  id: 'a positive whole number',
  name: 'required, at most 100 characters, no control characters',
  version: 'required, at most 64 characters, no control characters',
  download_url: 'an absolute http(s) URL of at most 2048 characters',
  icon_url: 'an absolute http(s) URL of at most 2048 characters',
  tint_color: 'six hexadecimal digits (a leading # is dropped)',
  size: 'bytes: a whole number',
  description: 'at most 4000 characters, no control characters but tab and line breaks',
  version_description: 'at most 4000 characters, no control characters but tab and line breaks',
  lock: '0 or 1',
  type: '0 (app) or 1 (game)',
  status: '0 (hidden: imported as a draft) or 1 (shown: imported published)',
  sort: 'a whole number',
  bundle_identifier: 'reverse-DNS (letters, digits, hyphens; at least two labels), at most 155 characters',
  developer_name: 'at most 100 characters, no control characters',
  min_os_version: 'like 14, 14.0 or 15.4.1',
};

function appRowSchema(now: number, utcOffsetSeconds: number) {
  return z.object({
    id: z.optional(z.string().check(z.trim(), z.regex(/^[1-9]\d{0,14}$/))),
    name: appText(100, { min: 1 }),
    version: appText(64, { min: 1 }),
    download_url: appUrl(),
    icon_url: z.optional(appUrl()),
    tint_color: z.optional(tintColor()),
    size: z.optional(appSize()),
    description: z.optional(appText(4000, { multiline: true })),
    version_description: z.optional(appText(4000, { multiline: true })),
    lock: z.optional(appBit()),
    type: z.optional(appBit()),
    status: z.optional(appBit()),
    sort: z.optional(z.string().check(z.trim(), z.regex(/^-?\d{1,9}$/))),
    bundle_identifier: z.optional(bundleIdentifier()),
    developer_name: z.optional(appText(100, { min: 1 })),
    min_os_version: z.optional(osVersion()),
    updated_at: convertedCell((v) => {
      const at = parsePanelTime(v, utcOffsetSeconds);
      if (at === null) throw new Error('not a time: Unix seconds or YYYY-MM-DD HH:MM:SS');
      if (at !== undefined && at > now + 86_400) throw new Error('in the future');
      return at;
    }),
  });
}

export interface AppRow {
  metadata: AppMetadata;
  /** The panel showed it: import it published if it is complete. */
  shown: boolean;
  at: number;
  sort: number | undefined;
}

/** `panel.<source>.<row id>`; without a row id, one per app name, so its versions group as one app. */
export function derivedBundleId(sourceId: string, rowId: string | undefined, name: string): string {
  const tail = rowId ?? `n${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
  return `panel.${sourceId.replace(/[^A-Za-z0-9-]/g, '-')}.${tail}`;
}

export function appsKind(options: { source: Source; now: number; utcOffsetSeconds: number; lookUpSize?: (url: string) => Promise<number | undefined> }): ImportKind<AppRow> {
  const { source, now } = options;
  const schema = appRowSchema(now, options.utcOffsetSeconds);
  const lookUpSize = options.lookUpSize ?? lookUpDownloadSize;
  const warnings: RowError[] = [];

  const prepare = (row: TableRow): Prepared<AppRow> => {
    const parsed = schema.safeParse(row.values);
    if (!parsed.success) {
      const errors = rowErrors(row.line, parsed.error).map((e) => ({ ...e, reason: row.values[e.column ?? ''] === undefined ? 'is required' : (ownValue(REASONS, e.column ?? '') ?? e.reason) }));
      return { ok: false, errors };
    }
    const v = parsed.data;
    const metadata: AppMetadata = {
      ...emptyMetadata(),
      name: v.name,
      version: v.version,
      download_url: v.download_url,
      bundle_identifier: v.bundle_identifier ?? derivedBundleId(source.source_id, v.id, v.name),
      developer_name: v.developer_name ?? source.name,
      description: v.description ?? '',
      icon_url: v.icon_url ?? '',
      size: v.size === 0 ? undefined : v.size,
      version_description: v.version_description ?? '',
      tint_color: v.tint_color ?? '',
      type: v.type ?? 0,
      lock: v.lock ?? 0,
      min_os_version: v.min_os_version ?? '',
    };
    const key = v.id !== undefined ? `id:${v.id}` : `name+version:${JSON.stringify([v.name, v.version])}`;
    return { ok: true, row: { line: row.line, key, ...(v.id === undefined ? { keyLabel: 'name and version' } : {}), value: { metadata, shown: (v.status ?? 1) === 1, at: v.updated_at ?? now, sort: v.sort === undefined ? undefined : Number(v.sort) } } };
  };

  /** A shown row publishes if it is complete, after the size lookup publishing would make. */
  const publishable = async (row: KeyedRow<AppRow>): Promise<{ metadata: AppMetadata; published: boolean }> => {
    let metadata = row.value.metadata;
    if (!row.value.shown) return { metadata, published: false };
    if (metadata.size === undefined) {
      const size = await lookUpSize(metadata.download_url);
      if (size !== undefined) metadata = { ...metadata, size };
    }
    const missing = missingForPublish(metadata);
    if (missing.length > 0) warnings.push({ line: row.line, column: missing[0]!, reason: `shown in the panel but publishing needs ${missing.join(', ')}: imported as a draft for the owner to complete` });
    return { metadata, published: missing.length === 0 };
  };

  const commit = async (rows: KeyedRow<AppRow>[], dryRun: boolean): Promise<CommitResult> => {
    const imported = await findImportedApps(source.source_id, rows.map((r) => r.key));
    const fresh = rows.filter((r) => !imported.has(r.key));
    let unchanged = rows.length - fresh.length;
    const errors: RowError[] = [];
    const ready = await Promise.all(fresh.map(async (row) => ({ row, ...(await publishable(row)) })));
    // Two published rows of one release in the same transaction would name one guard item twice.
    const releases = new Set<string>();
    const batch: Array<{ row: KeyedRow<AppRow>; app: ImportedApp }> = [];
    for (const { row, metadata, published } of ready) {
      const release = JSON.stringify([metadata.bundle_identifier, metadata.version]);
      if (published && releases.has(release)) {
        errors.push({ line: row.line, column: 'version', reason: 'duplicate_version: this bundle identifier and version are already published in the source' });
        continue;
      }
      if (published) releases.add(release);
      batch.push({ row, app: { rowKey: row.key, metadata, published, at: row.value.at, ...(row.value.sort === undefined ? {} : { extra: { panel_sort: row.value.sort } }) } });
    }
    if (dryRun) return { imported: batch.length, unchanged, errors };
    const outcomes = await putImportedApps(source.source_id, batch.map((b) => b.app), now);
    let written = 0;
    outcomes.forEach((outcome, i) => {
      const { row } = batch[i]!;
      if ('app_id' in outcome) written++;
      else if (outcome.refused === 'already_imported') unchanged++;
      else errors.push({ line: row.line, column: 'version', reason: 'duplicate_version: this bundle identifier and version are already published in the source' });
    });
    return { imported: written, unchanged, errors };
  };

  return { name: 'apps', layout: appLayout, keyColumn: 'id', prepare, commit, chunkSize: IMPORT_TRANSACTION_APPS, concurrency: 1, warnings };
}
