// Jest loads the sequencer outside its TypeScript transform, so this file is plain JavaScript.
import TestSequencer from '@jest/test-sequencer';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { URL } from 'node:url';

/**
 * Longest files first, so that no long file starts last and leaves the other worker idle while it runs.
 * Jest's own sequencer does this from the durations it cached on an earlier run; on a fresh clone it has none
 * and orders by file size, which put the 2-minute soak (a small file) among the last files to start. The
 * durations recorded in `test-durations.json` (seconds, from a measured run; `record-test-durations.ts`
 * rewrites them) stand in for the cache until jest has its own. The order changes nothing a test asserts.
 */
const recorded = JSON.parse(readFileSync(new URL('./test-durations.json', import.meta.url), 'utf8')).seconds;

export default class LongestFirstSequencer extends TestSequencer {
  sort(tests) {
    const weight = (test) => {
      const cached = this.time(test);
      if (cached != null) return cached;
      const seconds = recorded[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
      return seconds == null ? 0 : seconds * 1000;
    };
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const keyed = tests.map((test) => ({ test, failed: this.hasFailed(test), weight: weight(test), size: size(test) }));
    keyed.sort((a, b) => Number(b.failed) - Number(a.failed) || b.weight - a.weight || b.size - a.size);
    // As jest's own sort does: only a cached duration counts as one (jest reads it to choose running in band).
    for (const { test } of keyed) test.duration = this.time(test);
    return keyed.map(({ test }) => test);
  }
}
