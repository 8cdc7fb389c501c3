/**
 * Reads the two file shapes resellers can export from their PHP panels, incrementally (files with base64
 * certificates run to hundreds of megabytes):
 *
 * - `tsv`: MySQL `SELECT … INTO OUTFILE` with its defaults — fields separated by tabs, rows by newlines,
 *   `\N` for NULL, and a backslash before a tab, newline, backslash or NUL inside a value (`\0 \b \n \r \t \Z`
 *   are read as the characters they name, as `LOAD DATA` does).
 * - `csv`: a panel's CSV export (RFC 4180: commas, double quotes around values that need them, `""` for a
 *   quote inside one, CRLF or LF rows). An unquoted `\N` is NULL here too.
 *
 * A record knows the physical line it starts on, so errors point at the line an operator sees in an editor.
 * NULL cells are `null`; a leading byte-order mark is dropped.
 */
export type DelimitedFormat = 'tsv' | 'csv';

export interface DelimitedRecord {
  /** 1-based line of the file where the record starts. */
  line: number;
  cells: (string | null)[];
}

const TSV_ESCAPES: Record<string, string> = { '0': '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' };
const NULL_MARK = '\\N';

/** A file whose first line holds a tab is MySQL's tab-separated output; anything else is read as CSV. */
export function sniffFormat(firstChunk: string): DelimitedFormat {
  const end = firstChunk.indexOf('\n');
  return (end === -1 ? firstChunk : firstChunk.slice(0, end)).includes('\t') ? 'tsv' : 'csv';
}

export class DelimitedParser {
  private line = 1;
  private recordLine = 1;
  private cells: (string | null)[] = [];
  private field = '';
  /** The current field was exactly `\N` so far (tsv), or is an unquoted `\N` (csv). */
  private isNull = false;
  private escaped = false;
  private quoted = false;
  /** csv: a quote inside a quoted field, which is either `""` or the closing quote. */
  private quotePending = false;
  /** csv: the field was quoted (a quoted `"\N"` is text, not NULL). */
  private wasQuoted = false;
  private started = false;
  private pendingCr = false;

  constructor(private readonly format: DelimitedFormat) {}

  /** Feeds the next piece of text; returns the records it completed. */
  push(chunk: string): DelimitedRecord[] {
    let text = chunk;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return this.format === 'tsv' ? this.pushTsv(text) : this.pushCsv(text);
  }

  /** The last record when the file does not end with a newline. */
  end(): DelimitedRecord[] {
    const out: DelimitedRecord[] = [];
    if (this.escaped) this.field += '\\';
    if (this.pendingCr) this.field += '\r';
    this.escaped = this.quotePending = this.pendingCr = false;
    if (this.format === 'csv') this.markCsvNull();
    if (this.field !== '' || this.cells.length > 0 || this.isNull) this.endRecord(out);
    return out;
  }

  private endField(): void {
    this.cells.push(this.isNull ? null : this.field);
    this.field = '';
    this.isNull = false;
    this.wasQuoted = false;
  }

  private endRecord(out: DelimitedRecord[]): void {
    this.endField();
    const cells = this.cells;
    this.cells = [];
    // A blank line (one empty field) is not a record: files often end with one.
    if (!(cells.length === 1 && cells[0] === '')) out.push({ line: this.recordLine, cells });
    this.recordLine = this.line;
  }

  /**
   * More text joins the field: a CR held back (it was not the start of CRLF) belongs to it, and a field that
   * began as `\N` was not NULL after all but the letter N.
   */
  private settleBeforeText(): void {
    if (this.pendingCr) {
      this.field += '\r';
      this.pendingCr = false;
    }
    if (this.isNull) {
      this.isNull = false;
      this.field = 'N';
    }
  }

  private pushTsv(text: string): DelimitedRecord[] {
    const out: DelimitedRecord[] = [];
    let plainFrom = 0;
    const flushPlain = (to: number) => {
      if (to > plainFrom) {
        this.settleBeforeText();
        this.field += text.slice(plainFrom, to);
      }
    };
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (this.escaped) {
        this.escaped = false;
        plainFrom = i + 1;
        this.settleBeforeText();
        if (c === 'N' && this.field === '') {
          this.isNull = true;
          continue;
        }
        if (c === '\n') this.line++;
        this.field += TSV_ESCAPES[c] ?? c;
        continue;
      }
      if (c !== '\\' && c !== '\t' && c !== '\n' && c !== '\r') continue;
      flushPlain(i);
      plainFrom = i + 1;
      if (c === '\\') {
        this.escaped = true;
      } else if (c === '\t') {
        if (this.pendingCr) this.field += '\r';
        this.pendingCr = false;
        this.endField();
      } else if (c === '\r') {
        // Kept only if it is not the CR of a CRLF line end.
        if (this.pendingCr) this.field += '\r';
        this.pendingCr = true;
      } else {
        this.pendingCr = false;
        this.line++;
        this.endRecord(out);
      }
    }
    flushPlain(text.length);
    return out;
  }

  private pushCsv(text: string): DelimitedRecord[] {
    const out: DelimitedRecord[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (this.quotePending) {
        this.quotePending = false;
        if (c === '"') {
          this.field += '"';
          continue;
        }
        this.quoted = false;
      }
      if (this.quoted) {
        if (c === '"') this.quotePending = true;
        else {
          if (c === '\n') this.line++;
          this.field += c;
        }
        continue;
      }
      if (this.pendingCr && c !== '\n') {
        this.field += '\r';
        this.pendingCr = false;
      }
      if (c === '"' && this.field === '' && !this.wasQuoted) {
        this.quoted = true;
        this.wasQuoted = true;
      } else if (c === ',') {
        this.markCsvNull();
        this.endField();
      } else if (c === '\r') {
        this.pendingCr = true;
      } else if (c === '\n') {
        this.pendingCr = false;
        this.line++;
        this.markCsvNull();
        this.endRecord(out);
      } else {
        this.field += c;
      }
    }
    return out;
  }

  private markCsvNull(): void {
    if (!this.wasQuoted && this.field === NULL_MARK) this.isNull = true;
  }
}
