// What the bulk-import tests share: the checked-in samples, files of their own, and a watch on the DynamoDB
// commands an import sends.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentClient } from '../../shared/db/client';

export const samples = fileURLToPath(new URL('../import/samples', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'import-test-'));
let fileCounter = 0;

/** Writes `text` to a new temporary file and returns its path. */
export function tempFile(text: string, extension = 'tsv'): string {
  const path = join(dir, `f${++fileCounter}.${extension}`);
  writeFileSync(path, text);
  return path;
}

/** MySQL `INTO OUTFILE` rows: tab-separated, one line each (cells are written as given, escapes included). */
export const outfile = (rows: string[][]) => rows.map((r) => `${r.join('\t')}\n`).join('');

/**
 * Counts DynamoDB commands sent through the shared client while `fn` runs, and can make the `failOn`-th
 * command of a name throw (an interrupted import: the network or the process goes away mid-file).
 */
export async function watchDynamo<T>(fn: () => Promise<T>, options: { failOn?: { command: string; nth: number } } = {}): Promise<{ result: T; counts: Record<string, number> }> {
  const counts: Record<string, number> = {};
  const name = `watch${Math.random().toString(36).slice(2)}`;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? '').replace(/Command$/, '');
      counts[command] = (counts[command] ?? 0) + 1;
      if (options.failOn && command === options.failOn.command && counts[command] === options.failOn.nth) throw new Error('connection reset (simulated)');
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await fn(), counts };
  } finally {
    documentClient().middlewareStack.remove(name);
  }
}
