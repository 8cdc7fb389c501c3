/**
 * The one test that bundles for real (esbuild, no Docker): the assets the template points at hold an ESM
 * bundle per function that loads on Node and exports `handler`, as Lambda and `sam local` will load it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { BUNDLE_FILE, bundleSizes } from '../../infra/tooling/bundle-sizes';
import { templateFunctions, type TemplateFunction } from '../../infra/tooling/cloud-assembly';
import { ESM_REQUIRE_BANNER } from '../../infra/cdk/constructs/service-function';
import { authorizers, routes, scheduledJobs, streamConsumers } from '../../shared/routes';
import { PROJECT_ROOT } from '../../infra/cdk/project-root';
import { synth, type Synthesized } from '../support/synth';

/**
 * CDK runs the project's esbuild once per function as `npx --no-install esbuild …` (the lock file is npm's).
 * npx's own start-up is most of each of those runs (about 1.5 s of 2 on a busy 2-core machine, over a minute
 * for the stack), so for this synth `npx --no-install esbuild` starts the same binary directly, with the
 * arguments CDK gives it: the bundles are what `cdk synth` writes. Any other npx call goes to npx.
 */
function withDirectEsbuild<T>(run: () => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'appsource-npx-'));
  const realNpx = execFileSync('sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).trim();
  const npx = join(dir, 'npx');
  writeFileSync(
    npx,
    `#!/bin/sh\nif [ "$1" = "--no-install" ] && [ "$2" = "esbuild" ]; then shift 2; exec "${join(PROJECT_ROOT, 'node_modules', '.bin', 'esbuild')}" "$@"; fi\nexec "${realNpx}" "$@"\n`,
  );
  chmodSync(npx, 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${dir}${delimiter}${path ?? ''}`;
  try {
    return run();
  } finally {
    process.env.PATH = path;
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * CDK checks every synthesized template against CloudFormation's resource schemas (a WebAssembly validator,
 * seconds of CPU on its first run in a process). This synth's template is the default stack's with real asset
 * hashes, which the shared synth (bundling off) has already had checked (cdk-nag.test.ts): here the check is
 * turned off the way CDK documents (`CDK_VALIDATION=false`), and only the assets are read. cdk-nag still runs.
 */
function withoutSchemaCheck<T>(run: () => T): T {
  const saved = process.env.CDK_VALIDATION;
  process.env.CDK_VALIDATION = 'false';
  try {
    return run();
  } finally {
    if (saved === undefined) delete process.env.CDK_VALIDATION;
    else process.env.CDK_VALIDATION = saved;
  }
}

let s: Synthesized;
let functions: TemplateFunction[];
beforeAll(() => {
  s = withoutSchemaCheck(() => withDirectEsbuild(() => synth({ bundling: true })));
  functions = templateFunctions(s.json);
}, 240_000);

test('every route and scheduled job has a bundled asset that sam local can find', () => {
  expect(functions.map((f) => f.name).sort()).toEqual([...routes, ...scheduledJobs, ...authorizers, ...streamConsumers].map((e) => e.function).sort());
  for (const fn of functions) {
    const metadata = s.json.Resources[fn.logicalId]!.Metadata!;
    expect(metadata['aws:asset:property']).toBe('Code');
    expect(fn.assetPath).toMatch(/^asset\.[0-9a-f]{64}$/);
    expect(existsSync(join(s.outdir, fn.assetPath!, BUNDLE_FILE))).toBe(true);
    expect(existsSync(join(s.outdir, fn.assetPath!, `${BUNDLE_FILE}.map`))).toBe(true);
  }
});

test('each bundle is minified ESM with the require shim, and exports a handler function when loaded by Node', () => {
  const bundles = functions.map((fn) => ({ name: fn.name, file: join(s.outdir, fn.assetPath!, BUNDLE_FILE) }));
  for (const { file } of bundles) {
    const code = readFileSync(file, 'utf8');
    expect(code.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    // Minified: long lines (only template literals keep their line breaks).
    expect(code.length / code.split('\n').length).toBeGreaterThan(2000);
  }
  // A fresh Node process, as Lambda's runtime would load the file: ESM import by URL, nothing from this repo.
  const script = `
    const results = {};
    for (const [name, file] of JSON.parse(process.argv[1])) {
      const mod = await import(new URL('file://' + file).href);
      results[name] = typeof mod.handler;
    }
    console.log(JSON.stringify(results));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(bundles.map((b) => [b.name, b.file]))], {
    encoding: 'utf8',
    cwd: s.outdir,
    env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', POWERTOOLS_LOG_LEVEL: 'SILENT', NODE_OPTIONS: '--enable-source-maps' },
  });
  expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual(Object.fromEntries(bundles.map((b) => [b.name, 'function'])));
});

test('bundle sizes are reported for every function', () => {
  // Deflate's fastest level: the sizes' figures are the report's (level 9, `npm run build:functions`); what is
  // checked here is that every function's files are found, read and measured, which level 1 shows as well.
  const sizes = bundleSizes(s.json, s.outdir, { level: 1 });
  expect(sizes.map((x) => x.function).sort()).toEqual(functions.map((f) => f.name).sort());
  for (const size of sizes) {
    expect(size.bundleBytes).toBeGreaterThan(10_000);
    expect(size.compressedBytes).toBeLessThan(size.bundleBytes + size.sourceMapBytes);
  }
});

test("a route's served files (the console's built web app) travel in its asset, where its handler looks for them", () => {
  const withFiles = routes.filter((r): r is typeof r & { files: string } => 'files' in r && typeof r.files === 'string');
  expect(withFiles.map((r) => r.function)).toEqual(['console']);
  for (const route of withFiles) {
    const fn = functions.find((f) => f.name === route.function)!;
    const built = join(PROJECT_ROOT, 'functions', route.function, route.files);
    const page = readFileSync(join(built, 'index.html'), 'utf8');
    expect(readFileSync(join(s.outdir, fn.assetPath!, route.files, 'index.html'), 'utf8')).toBe(page);
    for (const [, file] of page.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+)"/g)) {
      expect([file, readFileSync(join(s.outdir, fn.assetPath!, route.files, file!), 'utf8')]).toEqual([file, readFileSync(join(built, file!), 'utf8')]);
    }
  }
});
