/** Sizes of the function bundles in a synthesized assembly, for the README table and regressions. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { templateFunctions, type CfnTemplate } from './cloud-assembly';

export const BUNDLE_FILE = 'index.mjs';

export interface BundleSize {
  function: string;
  /** index.mjs as Lambda loads it. */
  bundleBytes: number;
  sourceMapBytes: number;
  /** Both files deflated, close to the zip CDK uploads (at level 9; see `bundleSizes`). */
  compressedBytes: number;
}

/**
 * `level` is deflate's: 9 (the default, what the report prints) is closest to the zip; the test that every
 * function is measured uses 1, which reads the same files through the same code in a fraction of the time.
 */
export function bundleSizes(template: CfnTemplate, assemblyDir: string, options: { level?: number } = {}): BundleSize[] {
  const level = options.level ?? 9;
  return templateFunctions(template)
    .map((fn) => {
      if (!fn.assetPath) throw new Error(`${fn.name} has no aws:asset:path metadata: was the assembly synthesized with bundling?`);
      const bundle = join(assemblyDir, fn.assetPath, BUNDLE_FILE);
      if (!existsSync(bundle)) throw new Error(`${fn.name}: no bundle at ${bundle}`);
      const code = readFileSync(bundle);
      const mapFile = `${bundle}.map`;
      const map = existsSync(mapFile) ? readFileSync(mapFile) : Buffer.alloc(0);
      const compressedBytes = deflateRawSync(code, { level }).length + (map.length ? deflateRawSync(map, { level }).length : 0);
      return { function: fn.name, bundleBytes: code.length, sourceMapBytes: map.length, compressedBytes };
    })
    .sort((a, b) => a.function.localeCompare(b.function));
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function bundleSizeTable(sizes: readonly BundleSize[]): string {
  return [
    '| function | index.mjs (minified) | source map | zipped (≈) |',
    '|---|---:|---:|---:|',
    ...sizes.map((s) => `| ${s.function} | ${kib(s.bundleBytes)} | ${kib(s.sourceMapBytes)} | ${kib(s.compressedBytes)} |`),
  ].join('\n');
}
