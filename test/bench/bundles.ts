/**
 * Function bundles beside a bare baseline, built in the same run with the esbuild settings the CDK stack uses:
 * minified bytes and fresh-process import time. The baseline is the smallest useful handler: it reads one item
 * through the SDK v3 DynamoDB document client.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ESM_REQUIRE_BANNER, EXTERNAL_MODULES } from '../../infra/cdk/constructs/service-function';
import { PROJECT_ROOT } from '../../infra/cdk/project-root';

export const BASELINE = '(bare SDK GetItem)';

const BASELINE_SOURCE = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async (event) => {
  const out = await client.send(new GetCommand({ TableName: process.env.TABLE, Key: { id: event.id } }));
  return { statusCode: 200, body: JSON.stringify(out.Item ?? null) };
};
`;

export interface BuiltBundle {
  name: string;
  file: string;
  bytes: number;
}

/**
 * The stack's esbuild settings (`infra/constructs/service-function.ts`), minus the source map file, for many
 * entries in one esbuild run: without code splitting each entry still gets a bundle of its own (the same bytes
 * as a build of that entry alone), and the shared modules and the SDK are parsed once instead of once per
 * function.
 */
async function bundleAll(entries: ReadonlyArray<{ name: string; folder: string; entry: string }>, dir: string): Promise<Array<BuiltBundle & { inputs: string[] }>> {
  const result = await build({
    entryPoints: entries.map(({ folder, entry }) => ({ in: entry, out: join(folder, 'index') })),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    target: 'node22',
    platform: 'node',
    mainFields: ['module', 'main'],
    minify: true,
    charset: 'utf8',
    external: [...EXTERNAL_MODULES],
    banner: { js: ESM_REQUIRE_BANNER },
    absWorkingDir: PROJECT_ROOT,
    metafile: true,
    logLevel: 'silent',
  });
  return entries.map(({ name, folder }) => {
    const file = join(dir, folder, 'index.mjs');
    const output = Object.entries(result.metafile.outputs).find(([path]) => join(PROJECT_ROOT, path) === file);
    if (!output) throw new Error(`esbuild wrote no bundle for ${name}`);
    return { name, file, bytes: statSync(file).size, inputs: Object.keys(output[1].inputs) };
  });
}

export const functionNames = (): string[] =>
  readdirSync(join(PROJECT_ROOT, 'functions'))
    .filter((name) => statSync(join(PROJECT_ROOT, 'functions', name, 'handler.ts'), { throwIfNoEntry: false })?.isFile())
    .sort();

/** Builds the baseline and every function (or those named) into a fresh temporary directory. */
export async function buildBundles(names: readonly string[] = functionNames()): Promise<Array<BuiltBundle & { inputs: string[] }>> {
  const dir = mkdtempSync(join(tmpdir(), 'bundles-'));
  const baselineDir = join(PROJECT_ROOT, 'node_modules', '.cache', 'bundle-baseline');
  mkdirSync(baselineDir, { recursive: true });
  const baselineEntry = join(baselineDir, 'handler.mjs');
  writeFileSync(baselineEntry, BASELINE_SOURCE);
  return bundleAll([{ name: BASELINE, folder: 'baseline', entry: baselineEntry }, ...names.map((name) => ({ name, folder: name, entry: join(PROJECT_ROOT, 'functions', name, 'handler.ts') }))], dir);
}

const IMPORT_SCRIPT = `
const t0 = performance.now();
const mod = await import(process.argv[1]);
const ms = performance.now() - t0;
if (typeof mod.handler !== 'function') throw new Error('no handler');
process.stdout.write(String(ms));`;

/**
 * Median import time of `file` in fresh Node processes (module evaluation included), the cost a cold Lambda
 * container pays before its first request. Runs are interleaved by the caller so machine noise hits every
 * bundle alike.
 */
export function importOnce(file: string): number {
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', IMPORT_SCRIPT, new URL(`file://${file}`).href], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', POWERTOOLS_LOG_LEVEL: 'SILENT', TABLE: 't' },
  });
  return Number(stdout);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median import ms per bundle over `runs` rounds, each round importing every bundle once. */
export function importTimes(bundles: readonly BuiltBundle[], runs: number): Map<string, number> {
  const samples = new Map<string, number[]>(bundles.map((b) => [b.name, []]));
  for (let r = 0; r < runs; r++) for (const b of bundles) samples.get(b.name)!.push(importOnce(b.file));
  return new Map([...samples].map(([name, list]) => [name, median(list)]));
}

export interface PairedImport {
  /** Median import ms of the bundle, and of the baseline imported beside it. */
  ms: number;
  baselineMs: number;
  /** Median of the per-pair ratios (bundle ÷ the baseline imported next to it). */
  ratio: number;
}

/**
 * Import time of each bundle beside the baseline's, paired: every run imports the bundle and the baseline one
 * right after the other, each in a fresh process, the order alternating from run to run (and from bundle to
 * bundle), so a passing stall of a shared machine weighs on both halves of a pair alike. The ratio is the
 * median of the pairs' ratios, not a ratio of medians taken at different moments.
 */
export function pairedImportTimes(bundles: readonly BuiltBundle[], baseline: BuiltBundle, runs: number): Map<string, PairedImport> {
  const pairs = new Map<string, Array<{ ms: number; base: number }>>(bundles.filter((b) => b !== baseline).map((b) => [b.name, []]));
  let turn = 0;
  for (let r = 0; r < runs; r++) {
    for (const b of bundles) {
      if (b === baseline) continue;
      const baseFirst = turn++ % 2 === 0;
      const first = importOnce(baseFirst ? baseline.file : b.file);
      const second = importOnce(baseFirst ? b.file : baseline.file);
      pairs.get(b.name)!.push(baseFirst ? { ms: second, base: first } : { ms: first, base: second });
    }
  }
  return new Map(
    [...pairs].map(([name, list]) => [name, { ms: median(list.map((p) => p.ms)), baselineMs: median(list.map((p) => p.base)), ratio: median(list.map((p) => p.ms / p.base)) }]),
  );
}

/** Whether a bundle contains a package, judged from esbuild's list of inputs. */
export function includesPackage(inputs: readonly string[], pkg: string): boolean {
  return inputs.some((i) => i.includes(`node_modules/${pkg}/`));
}

export const readBundle = (file: string) => readFileSync(file, 'utf8');
