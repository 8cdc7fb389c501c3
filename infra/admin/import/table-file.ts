/**
 * Turns an exported file into rows of named values. A file may start with a header row (panel CSV exports
 * do; `INTO OUTFILE` does not): it is recognised by holding the kind's marker column names, and its columns
 * are matched by name (case, spaces, `_` and `-` ignored; known panel spellings accepted; other columns are
 * ignored and reported). Without a header, columns are read in the kind's documented order.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { DelimitedParser, sniffFormat, type DelimitedFormat, type DelimitedRecord } from './delimited';

export interface ColumnSpec {
  /** The canonical name, used in errors and the README. */
  name: string;
  /** Other header spellings panels use. */
  aliases?: readonly string[];
}

export interface TableLayout {
  /** In the order a file without a header holds them. */
  columns: readonly ColumnSpec[];
  /** A first row naming all of these columns (by name or alias) is a header. */
  headerMarkers: readonly string[];
}

export interface TableRow {
  line: number;
  /** Absent for NULL and empty cells. */
  values: Record<string, string | undefined>;
  /** Set when the row's shape is wrong (too many cells); its values are not to be trusted. */
  shapeError?: string;
}

/** Rows read from one piece of the file, and how far into the file that piece ends. */
export interface TableChunk {
  rows: TableRow[];
  bytesRead: number;
  totalBytes: number;
}

const normalize = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

export class TableFile {
  format: DelimitedFormat | undefined;
  /** Header columns no field maps to (an empty list when there is no header or all are used). */
  ignoredColumns: string[] = [];
  hasHeader = false;
  private mapping: (string | undefined)[] = [];

  constructor(
    private readonly path: string,
    private readonly layout: TableLayout,
    private readonly options: { format?: DelimitedFormat | undefined } = {},
  ) {}

  async size(): Promise<number> {
    return (await stat(this.path)).size;
  }

  /** The rows, a piece of the file at a time. */
  async *chunks(): AsyncGenerator<TableChunk> {
    const totalBytes = await this.size();
    const stream = createReadStream(this.path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
    let parser: DelimitedParser | undefined;
    let first = true;
    for await (const chunk of stream as AsyncIterable<string>) {
      if (!parser) {
        this.format = this.options.format ?? sniffFormat(chunk);
        parser = new DelimitedParser(this.format);
      }
      const records = parser.push(chunk);
      if (first && records.length > 0) {
        first = false;
        if (this.readHeader(records[0]!)) records.shift();
      }
      if (records.length > 0) yield { rows: records.map((r) => this.toRow(r)), bytesRead: stream.bytesRead, totalBytes };
    }
    const rest = parser?.end() ?? [];
    if (first && rest.length > 0 && this.readHeader(rest[0]!)) rest.shift();
    if (rest.length > 0) yield { rows: rest.map((r) => this.toRow(r)), bytesRead: totalBytes, totalBytes };
  }

  private readHeader(record: DelimitedRecord): boolean {
    const byName = new Map<string, string>();
    for (const column of this.layout.columns) {
      for (const name of [column.name, ...(column.aliases ?? [])]) byName.set(normalize(name), column.name);
    }
    const names = record.cells.map((cell) => normalize(cell ?? ''));
    const named = new Set(names.map((name) => byName.get(name)));
    if (!this.layout.headerMarkers.every((marker) => named.has(marker))) {
      this.mapping = this.layout.columns.map((c) => c.name);
      return false;
    }
    this.hasHeader = true;
    const taken = new Set<string>();
    this.mapping = names.map((name, i) => {
      const field = byName.get(name);
      // The first column of a name wins; a second one (a panel exporting `type` twice) is ignored.
      if (field === undefined || taken.has(field)) {
        this.ignoredColumns.push(record.cells[i] ?? '');
        return undefined;
      }
      taken.add(field);
      return field;
    });
    return true;
  }

  private toRow(record: DelimitedRecord): TableRow {
    const values: Record<string, string | undefined> = {};
    const row: TableRow = { line: record.line, values };
    record.cells.forEach((cell, i) => {
      const field = this.mapping[i];
      if (field !== undefined && cell !== null && cell !== '') values[field] = cell;
    });
    if (record.cells.length > this.mapping.length) {
      row.shapeError = `${record.cells.length} fields where the ${this.hasHeader ? 'header names' : 'column order has'} ${this.mapping.length}`;
    }
    return row;
  }
}
