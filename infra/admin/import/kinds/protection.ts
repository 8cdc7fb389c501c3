/**
 * A source panel's protection tables, imported into one of the user's sources:
 * - `--unlock-codes` (the panel's `kami` codes): unused codes stay unused; a used one keeps its UDID and times,
 *   and a UDID whose unlock has not ended may download the locked apps until it ends (a later unlock the UDID
 *   already has is kept).
 * - `--blocklist` (the `black` table): blocked UDIDs, leaving the monitor as a block does.
 * - `--monitor` (the `monitor` table): reported UDIDs with their role, count and first/last report; a UDID
 *   the source blocks is refused (a blocked UDID is not monitored).
 *
 * Keys: the code; the UDID; the UDID and role. A key already stored is `unchanged`. Each row is one
 * conditional transaction's worth of items, written in batches (see `transactRows`).
 */
import * as z from 'zod/mini';
import { transactRows, MAX_TRANSACTION_ITEMS, type RowWrite } from '../../../../shared/db/transactions';
import {
  blockKey,
  codeKey,
  existingEntries,
  monitorKey,
  monitorLeaveParts,
  newBlockPart,
  newCodePart,
  newMonitorPart,
  notBlockedPart,
  unlockGrantPart,
} from '../../../../shared/db/repositories/protection-repository';
import { DAY_SECONDS, normalizeUnlockCode, UNLOCK_CODE_LIMITS, type BlockReason, type MonitorRole } from '../../../../shared/records/protection';
import { isUdidFormat, udidKey } from '../../../../shared/records/device';
import type { Source } from '../../../../shared/records/source';
import type { CommitResult, ImportKind, KeyedRow, Prepared, RowError } from '../runner';
import type { TableLayout, TableRow } from '../table-file';
import { parsePanelTime } from '../time-cells';
import { checkedCell, convertedCell, requiredCell, rowErrors } from '../zod-rows';

/** The panels' code kinds: how many days a code of each kind unlocks for. */
export const PANEL_CODE_KINDS: Readonly<Record<string, number>> = { '1': 30, '2': 90, '3': 360 };

const UDID_REASON = 'not a UDID: 25 characters XXXXXXXX-XXXXXXXXXXXXXXXX or 40, hexadecimal';

interface Options {
  source: Source;
  now: number;
  utcOffsetSeconds: number;
}

const timeCell = (now: number, utcOffsetSeconds: number) =>
  convertedCell((v) => {
    const at = parsePanelTime(v, utcOffsetSeconds);
    if (at === null) throw new Error('not a time: Unix seconds or YYYY-MM-DD HH:MM:SS');
    return at;
  });

const notFuture = (now: number) => (at: number | undefined) => at === undefined || at <= now + 86_400;

interface ProtectionSpec<T> {
  name: string;
  layout: TableLayout;
  keyColumn: string;
  prepare(row: TableRow): Prepared<T>;
  /** The item whose presence means the row was imported. */
  itemKey(value: T): string;
  /** Items read with the key items on a dry run, and what finding one means (a write's refusal). */
  refusals?(value: T): Array<{ itemKey: string; reason: string }>;
  write(value: T): RowWrite;
  itemsPerRow: number;
}

function protectionKind<T>(source: Source, spec: ProtectionSpec<T>): ImportKind<T> {
  const commit = async (rows: KeyedRow<T>[], dryRun: boolean): Promise<CommitResult> => {
    const refusals = rows.flatMap((row) => (spec.refusals?.(row.value) ?? []).map((r) => ({ ...r, line: row.line })));
    const keys = [...new Set([...rows.map((r) => spec.itemKey(r.value)), ...refusals.map((r) => r.itemKey)])];
    const found = await existingEntries(source.source_id, keys);
    let unchanged = 0;
    const errors: RowError[] = [];
    const fresh: KeyedRow<T>[] = [];
    for (const row of rows) {
      const refusal = refusals.find((r) => r.line === row.line && found.has(r.itemKey));
      if (found.has(spec.itemKey(row.value))) unchanged++;
      else if (refusal) errors.push({ line: row.line, column: spec.keyColumn, reason: refusal.reason });
      else fresh.push(row);
    }
    if (dryRun || fresh.length === 0) return { imported: fresh.length, unchanged, errors };
    let imported = 0;
    const perTransaction = Math.floor(MAX_TRANSACTION_ITEMS / spec.itemsPerRow);
    for (let i = 0; i < fresh.length; i += perTransaction) {
      const group = fresh.slice(i, i + perTransaction);
      const outcomes = await transactRows(group.map((row) => spec.write(row.value)));
      outcomes.forEach((outcome, k) => {
        if (outcome.outcome === 'written') imported++;
        else if (outcome.outcome === 'unchanged') unchanged++;
        else errors.push({ line: group[k]!.line, column: spec.keyColumn, reason: outcome.reason });
      });
    }
    return { imported, unchanged, errors };
  };
  return { name: spec.name, layout: spec.layout, keyColumn: spec.keyColumn, prepare: spec.prepare, commit, chunkSize: 100, concurrency: 2 };
}

// ---- unlock codes ----

/** The shortest unlock code an import accepts (issue 33). */
const IMPORTED_CODE_MIN = 8;

export interface CodeRow {
  code: string;
  days: number;
  udid?: string | undefined;
  used_at?: number | undefined;
  ends_at?: number | undefined;
}

export const unlockCodeLayout = {
  columns: [
    { name: 'code', aliases: ['kami', 'km', 'card'] },
    { name: 'kind', aliases: ['type', 'lx', 'duration'] },
    { name: 'udid', aliases: ['used_udid', 'use_udid'] },
    { name: 'used_at', aliases: ['use_time', 'usetime', 'used_time'] },
    { name: 'ends_at', aliases: ['end_time', 'endtime', 'expire_time', 'dqtime'] },
    { name: 'days' },
  ],
  headerMarkers: ['code'],
} as const;

export function unlockCodesKind({ source, now, utcOffsetSeconds }: Options): ImportKind<CodeRow> {
  const { min, max } = UNLOCK_CODE_LIMITS.days;
  const schema = z.object({
    // At least 8 characters: a shorter code is within reach of guessing even at the per-source ceiling.
    code: requiredCell((v) => (normalizeUnlockCode(v)?.length ?? 0) >= IMPORTED_CODE_MIN, `letters and digits only, ${IMPORTED_CODE_MIN} to 32`),
    kind: checkedCell((v) => Object.hasOwn(PANEL_CODE_KINDS, v), 'must be 1 (30 days), 2 (90 days) or 3 (360 days)'),
    days: checkedCell((v) => /^\d{1,4}$/.test(v) && Number(v) >= min && Number(v) <= max, `a whole number of days, ${min}–${max}`),
    udid: checkedCell(isUdidFormat, UDID_REASON),
    used_at: z.pipe(timeCell(now, utcOffsetSeconds), z.custom<number | undefined>(notFuture(now), 'in the future')),
    ends_at: timeCell(now, utcOffsetSeconds),
  });
  const prepare = (row: TableRow): Prepared<CodeRow> => {
    const parsed = schema.safeParse(row.values);
    if (!parsed.success) return { ok: false, errors: rowErrors(row.line, parsed.error) };
    const v = parsed.data;
    const fail = (column: string, reason: string): Prepared<CodeRow> => ({ ok: false, errors: [{ line: row.line, column, reason }] });
    const days = v.days !== undefined ? Number(v.days) : v.kind !== undefined ? PANEL_CODE_KINDS[v.kind]! : undefined;
    if (days === undefined) return fail('kind', 'is required (or days)');
    const code = normalizeUnlockCode(v.code)!;
    if (v.udid === undefined) {
      if (v.used_at !== undefined || v.ends_at !== undefined) return fail('udid', 'a code with used_at or ends_at needs the UDID that used it');
      return { ok: true, row: { line: row.line, key: code, value: { code, days } } };
    }
    const usedAt = v.used_at ?? (v.ends_at !== undefined ? v.ends_at - days * DAY_SECONDS : now);
    const endsAt = v.ends_at ?? usedAt + days * DAY_SECONDS;
    if (endsAt < usedAt) return fail('ends_at', 'before used_at');
    return { ok: true, row: { line: row.line, key: code, value: { code, days, udid: udidKey(v.udid), used_at: usedAt, ends_at: endsAt } } };
  };
  return protectionKind(source, {
    name: 'unlock codes', layout: unlockCodeLayout, keyColumn: 'code',
    prepare,
    itemKey: (v) => codeKey(v.code),
    itemsPerRow: 2,
    write: (v) => {
      const code = { code: v.code, days: v.days, created_at: now, ...(v.udid ? { udid: v.udid, used_at: v.used_at, ends_at: v.ends_at } : {}) };
      const items: RowWrite['items'] = [{ item: newCodePart(source.source_id, code), onConditionFailed: { outcome: 'unchanged' } }];
      if (v.udid && v.ends_at !== undefined && v.ends_at > now) {
        // The UDID already unlocked for longer: that stands, the code is still imported.
        items.push({ item: unlockGrantPart(source.source_id, v.udid, v.ends_at), onConditionFailed: { outcome: 'drop' } });
      }
      return { items };
    },
  });
}

// ---- block list ----

export interface BlockRow {
  udid: string;
  reason: BlockReason;
  added_at: number;
}

const BLOCK_REASONS = ['adder', 'cracker', 'manual'] as const;
const MONITOR_ROLES = ['adder', 'cracker'] as const;

export const blocklistLayout = {
  columns: [
    { name: 'udid' },
    { name: 'reason', aliases: ['type', 'role'] },
    { name: 'added_at', aliases: ['addtime', 'add_time', 'time', 'created_at'] },
  ],
  headerMarkers: ['udid'],
} as const;

const lowerEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.optional(z.pipe(z.string().check(z.trim(), z.toLowerCase()), z.enum(values, { error: `must be ${values.join(', ')}` })));

export function blocklistKind({ source, now, utcOffsetSeconds }: Options): ImportKind<BlockRow> {
  const schema = z.object({
    udid: requiredCell(isUdidFormat, UDID_REASON),
    reason: lowerEnum(BLOCK_REASONS),
    added_at: z.pipe(timeCell(now, utcOffsetSeconds), z.custom<number | undefined>(notFuture(now), 'in the future')),
  });
  const prepare = (row: TableRow): Prepared<BlockRow> => {
    const parsed = schema.safeParse(row.values);
    if (!parsed.success) return { ok: false, errors: rowErrors(row.line, parsed.error) };
    const udid = udidKey(parsed.data.udid);
    return { ok: true, row: { line: row.line, key: udid, value: { udid, reason: parsed.data.reason ?? 'manual', added_at: parsed.data.added_at ?? now } } };
  };
  return protectionKind(source, {
    name: 'blocklist', layout: blocklistLayout, keyColumn: 'udid',
    prepare,
    itemKey: (v) => blockKey(v.udid),
    itemsPerRow: 1 + MONITOR_ROLES.length,
    write: (v) => ({
      items: [
        { item: newBlockPart(source.source_id, v), onConditionFailed: { outcome: 'unchanged' } },
        // A blocked UDID leaves the monitor, as blocking by hand does.
        ...monitorLeaveParts(source.source_id, v.udid).map((item) => ({ item, onConditionFailed: { outcome: 'drop' as const } })),
      ],
    }),
  });
}

// ---- monitor ----

export interface MonitorRow {
  udid: string;
  role: MonitorRole;
  count: number;
  first_seen: number;
  last_seen: number;
}

export const monitorLayout = {
  columns: [
    { name: 'udid' },
    { name: 'role', aliases: ['type'] },
    { name: 'count', aliases: ['num', 'times'] },
    { name: 'first_seen', aliases: ['addtime', 'add_time', 'first_time'] },
    { name: 'last_seen', aliases: ['updatetime', 'update_time', 'last_time'] },
  ],
  headerMarkers: ['udid'],
} as const;

const BLOCKED_REASON = 'the source blocks this UDID, and a blocked UDID is not monitored';

export function monitorKind({ source, now, utcOffsetSeconds }: Options): ImportKind<MonitorRow> {
  const schema = z.object({
    udid: requiredCell(isUdidFormat, UDID_REASON),
    role: z.pipe(z.string({ error: 'is required' }).check(z.trim(), z.toLowerCase()), z.enum(MONITOR_ROLES, { error: `must be ${MONITOR_ROLES.join(', ')}` })),
    count: checkedCell((v) => /^[1-9]\d{0,8}$/.test(v), 'a whole number of reports, at least 1'),
    first_seen: z.pipe(timeCell(now, utcOffsetSeconds), z.custom<number | undefined>(notFuture(now), 'in the future')),
    last_seen: z.pipe(timeCell(now, utcOffsetSeconds), z.custom<number | undefined>(notFuture(now), 'in the future')),
  });
  const prepare = (row: TableRow): Prepared<MonitorRow> => {
    const parsed = schema.safeParse(row.values);
    if (!parsed.success) return { ok: false, errors: rowErrors(row.line, parsed.error) };
    const v = parsed.data;
    const first = v.first_seen ?? v.last_seen ?? now;
    const last = v.last_seen ?? first;
    if (last < first) return { ok: false, errors: [{ line: row.line, column: 'last_seen', reason: 'before first_seen' }] };
    const udid = udidKey(v.udid);
    return { ok: true, row: { line: row.line, key: `${udid}#${v.role}`, keyLabel: 'udid and role', value: { udid, role: v.role, count: v.count === undefined ? 1 : Number(v.count), first_seen: first, last_seen: last } } };
  };
  return protectionKind(source, {
    name: 'monitor', layout: monitorLayout, keyColumn: 'udid',
    prepare,
    itemKey: (v) => monitorKey(v.udid, v.role),
    refusals: (v) => [{ itemKey: blockKey(v.udid), reason: BLOCKED_REASON }],
    itemsPerRow: 2,
    write: (v) => ({
      items: [
        { item: newMonitorPart(source.source_id, v), onConditionFailed: { outcome: 'unchanged' } },
        { item: notBlockedPart(source.source_id, v.udid), onConditionFailed: { outcome: 'error', reason: BLOCKED_REASON } },
      ],
    }),
  });
}
