/**
 * One synthesized default stack (bundling off, no extra context) shared by the test files that only read it.
 * Jest runs files in separate worker processes, so the share is a file cache under the OS temp folder, keyed by
 * a hash of everything the synth reads: the stack code (infra/), the route table, table list and the rest of
 * shared/, the function folders (each route's handler file must exist), bin/, cdk.json, tsconfig.json,
 * package-lock.json (the CDK version) and the options below. Any edit to those files gives a new key, so a stale
 * template is never read; the first file to need the key synthesizes it, the others read the files it wrote.
 * Files that need other context (flags, targets, extra routes) or the live construct tree keep `synth()`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { createApp } from '../../infra/cdk/create-app';
import { PROJECT_ROOT } from '../../infra/cdk/project-root';
import { templateFunctions, type CfnTemplate } from '../../infra/tooling/cloud-assembly';

export interface SharedSynth {
  json: CfnTemplate;
  /** The same template for `aws-cdk-lib/assertions` queries. */
  template: Template;
  /** The cloud assembly folder (template, manifest); read it, never write to it. */
  outdir: string;
  functionId(name: string): string;
}

/** What the synth reads; a change to any of these files must change the key. */
const INPUTS = ['infra', 'shared', 'functions', 'bin', 'cdk.json', 'tsconfig.json', 'package-lock.json'];
/** The options of the shared synth, part of the key. */
const OPTIONS = { bundling: false, context: {} };
const CACHE_ROOT = join(tmpdir(), 'appsource-shared-synth');
const TEMPLATE_FILE = 'shared-template.json';
const DAY_MS = 24 * 60 * 60 * 1000;

function addFiles(hash: ReturnType<typeof createHash>, path: string): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isDirectory()) {
    for (const name of readdirSync(path).sort()) if (name !== 'node_modules' && name !== 'cdk.out') addFiles(hash, join(path, name));
    return;
  }
  hash.update(`${relative(PROJECT_ROOT, path)}\0`).update(readFileSync(path)).update('\0');
}

/** The cache key: a hash of the synth's inputs and options. */
export function sharedSynthKey(): string {
  const hash = createHash('sha256').update(JSON.stringify(OPTIONS));
  for (const input of INPUTS) addFiles(hash, join(PROJECT_ROOT, input));
  return hash.digest('hex').slice(0, 32);
}

function pruneOld(keep: string): void {
  for (const name of readdirSync(CACHE_ROOT)) {
    const dir = join(CACHE_ROOT, name);
    if (name !== keep && Date.now() - statSync(dir).mtimeMs > DAY_MS) rmSync(dir, { recursive: true, force: true });
  }
}

let memo: SharedSynth | undefined;

/** The default stack's template and assembly, synthesized at most once per source tree. */
export function sharedSynth(): SharedSynth {
  if (memo) return memo;
  const key = sharedSynthKey();
  const dir = join(CACHE_ROOT, key);
  if (!existsSync(join(dir, TEMPLATE_FILE))) {
    mkdirSync(CACHE_ROOT, { recursive: true });
    // Synthesize beside the final folder and rename it into place: a reader sees a complete folder or none.
    const work = mkdtempSync(join(CACHE_ROOT, `.${key}-`));
    const { stack } = createApp({ ...OPTIONS, outdir: work });
    writeFileSync(join(work, TEMPLATE_FILE), JSON.stringify(Template.fromStack(stack).toJSON()));
    try {
      renameSync(work, dir);
    } catch {
      // Another worker renamed its copy first: the same key holds the same template.
      rmSync(work, { recursive: true, force: true });
    }
    pruneOld(key);
  }
  const json = JSON.parse(readFileSync(join(dir, TEMPLATE_FILE), 'utf8')) as CfnTemplate;
  const ids = new Map(templateFunctions(json).map((fn) => [fn.name, fn.logicalId]));
  const functionId = (name: string) => {
    const id = ids.get(name);
    if (!id) throw new Error(`no function ${name}`);
    return id;
  };
  memo = { json, template: Template.fromJSON(json), outdir: dir, functionId };
  return memo;
}
