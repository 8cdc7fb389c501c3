import { DelimitedParser, sniffFormat, type DelimitedFormat, type DelimitedRecord } from '../../infra/admin/import/delimited';
import { formatDuration, Progress } from '../../infra/admin/import/progress';
import { parsePanelTime, parseUtcOffset } from '../../infra/admin/import/time-cells';

/** Parses `text` whole and again one character at a time: chunk boundaries must not change the result. */
function parse(format: DelimitedFormat, text: string): DelimitedRecord[] {
  const whole = new DelimitedParser(format);
  const all = [...whole.push(text), ...whole.end()];
  const bytewise = new DelimitedParser(format);
  const pieces: DelimitedRecord[] = [];
  for (const c of text) pieces.push(...bytewise.push(c));
  pieces.push(...bytewise.end());
  expect(pieces).toEqual(all);
  return all;
}

describe('MySQL INTO OUTFILE (tsv)', () => {
  test('tabs split, \\N is NULL, escapes are decoded, an escaped newline stays in the value', () => {
    expect(parse('tsv', 'a\t\\N\tx\\ty\\\\z\r\nline\\\nnext\t\\0\\Z\\b\\r\\n\tlast\n')).toEqual([
      { line: 1, cells: ['a', null, 'x\ty\\z'] },
      { line: 2, cells: ['line\nnext', '\0\x1a\b\r\n', 'last'] },
    ]);
  });

  test('an escaped tab is data; \\N inside a value is the letter; a CR not before LF is kept; a blank line is no row', () => {
    expect(parse('tsv', 'a\\\tb\t\\Nx\tc\rd\n\n\\N\n')).toEqual([
      { line: 1, cells: ['a\tb', 'Nx', 'c\rd'] },
      { line: 3, cells: [null] },
    ]);
  });

  test('a last row without a newline and a byte-order mark', () => {
    expect(parse('tsv', '\uFEFFudid\tkid\nx\ty')).toEqual([
      { line: 1, cells: ['udid', 'kid'] },
      { line: 2, cells: ['x', 'y'] },
    ]);
  });
});

describe('panel CSV', () => {
  test('quotes, doubled quotes, commas and line breaks inside quotes, CRLF, unquoted \\N', () => {
    expect(parse('csv', 'a,"b,c","say ""hi""",\r\n"multi\nline",\\N,"\\N"\n')).toEqual([
      { line: 1, cells: ['a', 'b,c', 'say "hi"', ''] },
      { line: 2, cells: ['multi\nline', null, '\\N'] },
    ]);
  });

  test('a file whose first line has a tab is tsv, otherwise csv', () => {
    expect(sniffFormat('udid\tkid\n')).toBe('tsv');
    expect(sniffFormat('udid,kid\nx\ty\n')).toBe('csv');
  });
});

describe('panel times', () => {
  test('Unix seconds, MySQL DATETIME in the given offset, zero as unknown, impossible dates refused', () => {
    expect(parsePanelTime('1763856000', 0)).toBe(1763856000);
    expect(parsePanelTime('0', 0)).toBeUndefined();
    expect(parsePanelTime('0000-00-00 00:00:00', 0)).toBeUndefined();
    expect(parsePanelTime('2025-11-20 09:30:00', 0)).toBe(Date.UTC(2025, 10, 20, 9, 30) / 1000);
    expect(parsePanelTime('2025-11-20 09:30:00', 8 * 3600)).toBe(Date.UTC(2025, 10, 20, 1, 30) / 1000);
    expect(parsePanelTime('2025-11-20', 0)).toBe(Date.UTC(2025, 10, 20) / 1000);
    expect(parsePanelTime('2025-02-29 00:00:00', 0)).toBeNull();
    expect(parsePanelTime('2025-11-20 24:00:00', 0)).toBeNull();
    expect(parsePanelTime('yesterday', 0)).toBeNull();
    expect(parseUtcOffset('+08:00')).toBe(28_800);
    expect(parseUtcOffset('-0530')).toBe(-19_800);
    expect(parseUtcOffset('8')).toBeUndefined();
  });
});

describe('progress on stderr', () => {
  function sink(isTTY: boolean) {
    const writes: string[] = [];
    return { writes, sink: { isTTY, columns: 100, write: (s: string) => writes.push(s) } };
  }

  test('a terminal gets one bar redrawn in place with rows, rate and ETA', () => {
    let t = 0;
    const { writes, sink: s } = sink(true);
    const progress = new Progress(s, 'import devices', () => t);
    t = 2_000;
    progress.update(5_000, 0.25);
    expect(writes[0]).toBe('\rimport devices ██████░░░░░░░░░░░░░░░░░░  25%  5,000 rows  2,500 rows/s  ETA 0:06\x1b[K');
    t = 2_050;
    progress.update(5_100, 0.26);
    expect(writes).toHaveLength(1);
    t = 8_000;
    progress.finish(20_000);
    expect(writes[1]).toBe('\rimport devices ████████████████████████ 100%  20,000 rows  2,500 rows/s  in 0:08\x1b[K\n');
  });

  test('a narrow terminal shortens the bar, never the numbers, and the line never wraps', () => {
    let t = 0;
    const writes: string[] = [];
    const progress = new Progress({ isTTY: true, columns: 70, write: (s: string) => writes.push(s) }, 'import devices', () => t);
    t = 2_000;
    progress.update(5_000, 0.25);
    const line = writes[0]!.replace('\r', '').replace('\x1b[K', '');
    expect(line.length).toBeLessThanOrEqual(69);
    expect(line).toMatch(/^import devices [█░]{5,23} {2}25% {2}5,000 rows {2}2,500 rows\/s {2}ETA 0:06$/);
  });

  test('elsewhere, a plain line every few seconds and one at the end', () => {
    let t = 0;
    const { writes, sink: s } = sink(false);
    const progress = new Progress(s, 'import apps', () => t, 5_000);
    t = 1_000;
    progress.update(10, 0.1);
    expect(writes).toEqual([]);
    t = 5_000;
    progress.update(50, 0.5);
    t = 10_000;
    progress.finish(100);
    expect(writes).toEqual(['import apps: 50%  50 rows  10 rows/s  ETA 0:05\n', 'import apps: 100%  100 rows  10 rows/s  done in 0:10\n']);
  });

  test('durations', () => {
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(3_725)).toBe('1:02:05');
    expect(formatDuration(Number.NaN)).toBe('--:--');
  });
});
