/**
 * The results page a bench run writes (results-page.ts): its own section replaced, a history line per run, the
 * README's figure line rewritten between its markers and nothing else of the README touched.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeResults } from './results-page';

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'results-page-'));
  const readme = join(dir, 'README.md');
  writeFileSync(readme, '# Product\n\nBench: <!-- figure:soak -->old figure<!-- /figure:soak -->\n\nThe rest stays.\n');
  return { page: join(dir, 'results.md'), readme };
}

test('a run replaces its section, keeps earlier runs as history lines, and rewrites only its README figure', () => {
  const f = files();
  writeResults({ name: 'soak', title: 'npm run soak', markdown: '| a |\n|---|\n| 1 |', figure: 'first run', at: new Date('2026-11-27T10:00:00Z') }, f);
  writeResults({ name: 'soak', title: 'npm run soak', markdown: '| a |\n|---|\n| 2 |', figure: 'second run', at: new Date('2026-11-27T11:00:00Z') }, f);
  const page = readFileSync(f.page, 'utf8');
  expect(page).toContain('| 2 |');
  expect(page).not.toContain('| 1 |');
  expect(page).toContain('- 2026-11-27 11:00 UTC: second run\n- 2026-11-27 10:00 UTC: first run');
  expect(page.match(/## npm run soak/g)).toHaveLength(1);
  expect(readFileSync(f.readme, 'utf8')).toBe(
    '# Product\n\nBench: <!-- figure:soak -->second run (2026-11-27; [tables](test/bench/results.md#npm-run-soak))<!-- /figure:soak -->\n\nThe rest stays.\n',
  );
});

test("another bench's section is left as it was, and new sections go above the archive", () => {
  const f = files();
  writeFileSync(f.page, '# Results\n\n<!-- archive:readme -->\nold tables\n<!-- /archive:readme -->\n');
  writeResults({ name: 'soak', title: 'npm run soak', markdown: 'soak table', figure: 'soak', at: new Date('2026-11-27T10:00:00Z') }, f);
  writeResults({ name: 'cost', title: 'npm run cost', markdown: 'cost table', figure: 'cost', at: new Date('2026-11-27T10:00:00Z') }, f);
  writeResults({ name: 'soak', title: 'npm run soak', markdown: 'soak table 2', figure: 'soak 2', at: new Date('2026-11-27T12:00:00Z') }, f);
  const page = readFileSync(f.page, 'utf8');
  expect(page.indexOf('soak table 2')).toBeLessThan(page.indexOf('cost table'));
  expect(page.indexOf('cost table')).toBeLessThan(page.indexOf('old tables'));
  // A README without the section's markers is not touched.
  expect(readFileSync(f.readme, 'utf8')).not.toContain('cost');
});
