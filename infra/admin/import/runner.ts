/**
 * The import pipeline every file kind shares: read rows → validate each (bad rows are reported and skipped)
 * → drop repeats of a key seen earlier in the file → hand chunks of good rows to the kind, a few chunks in
 * flight at once → one summary.
 *
 * Safety comes from the keys: every row has a deterministic key (a kid, an app id…), a kind writes only the
 * rows whose key is not stored yet, and a row is one item or one transaction, so it is written whole or not
 * at all. Re-running a file therefore changes nothing, and re-running an interrupted import resumes it: the
 * rows written before the interruption are found and counted `unchanged`.
 */
import type { DelimitedFormat } from './delimited';
import { Progress, type ProgressSink } from './progress';
import { TableFile, type TableLayout, type TableRow } from './table-file';
import { ServiceError } from '../../../shared/service-error';

export interface RowError {
  line: number;
  /** The column at fault; null when it is the row as a whole. */
  column: string | null;
  reason: string;
}

export interface KeyedRow<T> {
  line: number;
  /** What makes a re-run find this row again. */
  key: string;
  /** What the key is made of, for the duplicate message, when not the kind's `keyColumn`. */
  keyLabel?: string;
  value: T;
}

export type Prepared<T> = { ok: true; row: KeyedRow<T> } | { ok: false; errors: RowError[] };

export interface CommitResult {
  imported: number;
  unchanged: number;
  errors: RowError[];
}

export interface ImportKind<T> {
  /** `devices`, `apps`…: the progress label. */
  name: string;
  layout: TableLayout;
  /** The column a duplicate key is reported on. */
  keyColumn: string;
  /** Validates one row exactly as the matching API or CLI command would. */
  prepare(row: TableRow): Prepared<T>;
  /** Stores the rows whose keys are new (only counts them on a dry run); the rest are unchanged or errors. */
  commit(rows: KeyedRow<T>[], dryRun: boolean): Promise<CommitResult>;
  /** Rows per `commit`. */
  chunkSize?: number;
  /** Commits in flight at once; kinds whose rows depend on earlier rows use 1. */
  concurrency?: number;
  /** Rows imported differently from the file (an app shown in the panel but imported as a draft). */
  warnings?: RowError[];
}

export interface ImportSummary {
  kind: string;
  dry_run: boolean;
  /** Data rows read (the header is not one). */
  rows: number;
  /** Written now (on a dry run: would be written). */
  imported: number;
  /** Bad rows, reported in `errors` and not written. */
  skipped: number;
  /** Already stored by an earlier run. */
  unchanged: number;
  errors: RowError[];
  /** Errors left out of `errors` beyond the first `MAX_LISTED_ERRORS`. */
  errors_omitted?: number;
  /** Rows imported, but not exactly as the file had them. */
  warnings?: RowError[];
  /** Header columns no field maps to. */
  ignored_columns?: string[];
}

export const MAX_LISTED_ERRORS = 1_000;

export class ImportInterruptedError extends ServiceError<'interrupted', 'import_interrupted'> {
  override readonly name = 'ImportInterruptedError';

  constructor(message: string, options: { cause: unknown }) {
    super('interrupted', 'import_interrupted', message, options);
  }
}

export interface RunOptions {
  file: string;
  dryRun: boolean;
  format?: DelimitedFormat | undefined;
  progress: ProgressSink;
}

export async function runImport<T>(kind: ImportKind<T>, options: RunOptions): Promise<ImportSummary> {
  const table = new TableFile(options.file, kind.layout, { format: options.format });
  const chunkSize = kind.chunkSize ?? 100;
  const concurrency = kind.concurrency ?? 8;
  const progress = new Progress(options.progress, `import ${kind.name}${options.dryRun ? ' (dry run)' : ''}`);
  const summary: ImportSummary = { kind: kind.name, dry_run: options.dryRun, rows: 0, imported: 0, skipped: 0, unchanged: 0, errors: [] };
  const allErrors: RowError[] = [];
  const firstLineOfKey = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  /** Rows whose outcome is known: refused, or committed. */
  let handled = 0;
  /** Rows read up to the end of the last piece of the file, and the share of its bytes that piece ended at. */
  let rowsThroughPiece = 0;
  let fraction = 0;
  let pending: KeyedRow<T>[] = [];
  // Reading runs ahead of writing: the share done is rows handled over the rows the file holds, estimated
  // from the rows of the pieces read so far and the share of the bytes they took.
  const share = () => (rowsThroughPiece === 0 ? 0 : (handled * fraction) / rowsThroughPiece);

  const commit = (rows: KeyedRow<T>[]) => {
    const task = kind.commit(rows, options.dryRun).then(
      (result) => {
        summary.imported += result.imported;
        summary.unchanged += result.unchanged;
        summary.skipped += new Set(result.errors.map((e) => e.line)).size;
        allErrors.push(...result.errors);
        handled += rows.length;
        progress.update(handled, share());
      },
      (error: unknown) => {
        failure ??= error;
      },
    );
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  };

  const flush = async () => {
    if (pending.length > 0) commit(pending);
    pending = [];
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
  };

  try {
    for await (const piece of table.chunks()) {
      rowsThroughPiece += piece.rows.length;
      fraction = piece.totalBytes > 0 ? Math.min(1, piece.bytesRead / piece.totalBytes) : 1;
      for (const row of piece.rows) {
        if (failure) break;
        summary.rows++;
        const prepared = row.shapeError ? ({ ok: false, errors: [{ line: row.line, column: null, reason: row.shapeError }] } as const) : kind.prepare(row);
        if (!prepared.ok) {
          handled++;
          summary.skipped++;
          allErrors.push(...prepared.errors);
          continue;
        }
        const earlier = firstLineOfKey.get(prepared.row.key);
        if (earlier !== undefined) {
          handled++;
          summary.skipped++;
          allErrors.push({ line: row.line, column: kind.keyColumn, reason: `repeats the ${prepared.row.keyLabel ?? kind.keyColumn} of line ${earlier}` });
          continue;
        }
        firstLineOfKey.set(prepared.row.key, row.line);
        pending.push(prepared.row);
        if (pending.length >= chunkSize) await flush();
      }
      progress.update(handled, share());
      if (failure) break;
    }
    await flush();
    await Promise.all(inFlight);
  } catch (error) {
    failure ??= error;
    await Promise.allSettled(inFlight);
  }
  if (failure) {
    progress.interrupt();
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw new ImportInterruptedError(
      `import stopped after ${summary.imported} new row(s): ${reason}. Every row is written whole or not at all; run the same command again to resume.`,
      { cause: failure },
    );
  }
  progress.finish(summary.rows);
  allErrors.sort((a, b) => a.line - b.line);
  summary.errors = allErrors.slice(0, MAX_LISTED_ERRORS);
  if (allErrors.length > MAX_LISTED_ERRORS) summary.errors_omitted = allErrors.length - MAX_LISTED_ERRORS;
  if (kind.warnings?.length) summary.warnings = [...kind.warnings].sort((a, b) => a.line - b.line).slice(0, MAX_LISTED_ERRORS);
  if (table.ignoredColumns.length > 0) summary.ignored_columns = table.ignoredColumns;
  return summary;
}
