/**
 * `npm run bench -- import`: `admin import --devices` of a 20,000-row `INTO OUTFILE` file into DynamoDB Local,
 * as the operator runs it (validation, duplicate checks, id reservation, batched writes), reported in rows/s.
 * Each iteration imports the same file for a new user, so every row is new (kids derive from the user).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUser } from '../../shared/domain/users/user-service';
import { devicesKind } from '../../infra/admin/import/kinds/devices';
import { runImport } from '../../infra/admin/import/runner';
import type { Benchmark } from './harness';

const ROWS = 20_000;

function deviceFile(): string {
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const udid = `00008101-${(0xc0000000000 + i).toString(16).padStart(16, '0')}`;
    lines.push([udid, '\\N', i % 5 === 0 ? 'ipad' : 'iphone', String([0, 1, 2, 3, 4, 6][i % 6]), `customer ${i}`, `Phone ${i}`, String(1_700_000_000 + i * 60), 'normal', '\\N', '\\N'].join('\t'));
  }
  const path = join(mkdtempSync(join(tmpdir(), 'bench-import-')), 'devices.tsv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

export const benchmarks: Benchmark[] = [
  {
    name: `admin import --devices, ${ROWS.toLocaleString('en-US')} rows (tab-separated, no certificates)`,
    iterations: 1,
    rowsPerIteration: ROWS,
    prepare: async () => {
      const file = deviceFile();
      return async () => {
        const { user } = await createUser({ tenantId: 'default', name: 'mover' }, 1_700_000_000);
        const summary = await runImport(devicesKind({ user, now: Math.floor(Date.now() / 1000), utcOffsetSeconds: 0 }), { file, dryRun: false, progress: process.stderr });
        if (summary.imported !== ROWS) throw new Error(`imported ${summary.imported} of ${ROWS}: ${JSON.stringify(summary.errors.slice(0, 3))}`);
      };
    },
  },
];
