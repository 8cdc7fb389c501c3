/**
 * Rewrites `test-durations.json` (the order the test sequencer starts files in on a fresh clone) from jest's
 * JSON results: `npm run jest -- --json --outputFile=/tmp/jest.json [folders]`, then
 * `npx tsx test/support/record-test-durations.ts /tmp/jest.json …` (several result files may be given, e.g.
 * one per folder). Files under the threshold are left out: their order hardly matters.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from '../../infra/cdk/project-root';

const THRESHOLD_SECONDS = 5;
const OUT = join(PROJECT_ROOT, 'test', 'support', 'test-durations.json');

interface JestJson {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: tsx test/support/record-test-durations.ts RESULTS.json …');
  process.exit(2);
}
/**
 * The file's path in this project: results may come from another checkout (a fresh clone's run), so the path is
 * the tail from the first `test/` folder that names a file here.
 */
function projectPath(name: string): string {
  const parts = name.split(/[\\/]/);
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] !== 'test') continue;
    const tail = parts.slice(i).join('/');
    if (existsSync(join(PROJECT_ROOT, tail))) return tail;
  }
  return relative(PROJECT_ROOT, name).split('\\').join('/');
}

const seconds: Record<string, number> = {};
for (const file of files) {
  for (const result of (JSON.parse(readFileSync(file, 'utf8')) as JestJson).testResults) {
    const took = Math.round((result.endTime - result.startTime) / 1000);
    if (took >= THRESHOLD_SECONDS) seconds[projectPath(result.name)] = took;
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
const note = 'Seconds per test file of a measured run (only the order matters); rewritten by record-test-durations.ts';
writeFileSync(OUT, `${JSON.stringify({ note, measured: new Date().toISOString().slice(0, 10), seconds: sorted }, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files written to ${relative(PROJECT_ROOT, OUT)}`);
