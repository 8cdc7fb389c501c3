/**
 * The order jest starts test files in (test/support/test-sequencer.js): longest first, from jest's own cached
 * durations where it has them, else from the recorded ones, else by size, so a fresh clone does not start its
 * longest file last.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from '../../infra/cdk/project-root';
// @ts-expect-error: plain JavaScript (jest loads it outside the TypeScript transform), without declarations.
import LongestFirstSequencer from '../support/test-sequencer.js';

interface FakeTest {
  path: string;
  duration?: number;
  context: { config: { rootDir: string; cache: boolean; cacheDirectory: string; id: string }; hasteFS: { getSize(path: string): number } };
}

const sizes = new Map<string, number>();
const context = { config: { rootDir: PROJECT_ROOT, cache: false, cacheDirectory: '/nonexistent', id: 'order' }, hasteFS: { getSize: (path: string) => sizes.get(path) ?? 0 } };
const file = (relative: string, size: number): FakeTest => {
  const path = join(PROJECT_ROOT, relative);
  sizes.set(path, size);
  return { path, context };
};
const order = (sequencer: { sort(tests: FakeTest[]): FakeTest[] }, tests: FakeTest[]) => sequencer.sort(tests).map((t) => relative(PROJECT_ROOT, t.path));

const recorded = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/support/test-durations.json'), 'utf8')) as { seconds: Record<string, number> }).seconds;
const [longest, second] = Object.keys(recorded);

test('the recorded durations name test files of this project, by their path in it', () => {
  // A run recorded from another checkout (a fresh clone) once wrote paths such as ../../tmp/clone/test/…: no file
  // matched them, and the soak went back to starting late.
  expect(Object.keys(recorded).length).toBeGreaterThan(10);
  expect(Object.keys(recorded).filter((path) => !path.startsWith('test/') || !existsSync(join(PROJECT_ROOT, path)))).toEqual([]);
});

test('without jest cache: recorded durations first, longest first, then the rest by size', () => {
  const sequencer = new LongestFirstSequencer({});
  const tests = [file('test/a-large-unrecorded.test.ts', 90_000), file(second!, 10), file('test/small.test.ts', 5), file(longest!, 1)];
  expect(order(sequencer, tests)).toEqual([longest, second, 'test/a-large-unrecorded.test.ts', 'test/small.test.ts']);
  // Recorded seconds are not jest's cache: jest's own choices (running in band) see no duration.
  expect(tests.every((t) => t.duration === undefined)).toBe(true);
});

test("jest's cached durations and failures win over the recorded ones", () => {
  const sequencer = new LongestFirstSequencer({});
  const cached = new Map<string, [number, number]>([
    [join(PROJECT_ROOT, 'test/failed-last-time.test.ts'), [0, 10]],
    [join(PROJECT_ROOT, 'test/slow-last-time.test.ts'), [1, (recorded[longest!]! + 1) * 1000]],
  ]);
  sequencer.time = (t: FakeTest) => cached.get(t.path)?.[1];
  sequencer.hasFailed = (t: FakeTest) => cached.get(t.path)?.[0] === 0;
  const tests = [file(longest!, 1), file('test/slow-last-time.test.ts', 1), file('test/failed-last-time.test.ts', 1)];
  expect(order(sequencer, tests)).toEqual(['test/failed-last-time.test.ts', 'test/slow-last-time.test.ts', longest]);
});
