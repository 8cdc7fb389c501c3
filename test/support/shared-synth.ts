/**
 * One synthesized default stack (bundling off, no extra context) shared by the test files that only read it.
 * Jest runs files in separate worker processes, so the share is a file cache under the OS temp folder, keyed by
 * a hash of everything the synth reads: the stack code (infra/), the route table, table list and the rest of
 * shared/, the function folders (each route's handler file must exist), bin/, cdk.json, tsconfig.json,
 * package-lock.json (the CDK and cdk-nag versions) and the options below. Any edit to those files gives a new
 * key, so a stale template is never read; the first file to need the key synthesizes it (a second file that
 * needs it meanwhile waits for it rather than synthesizing the same stack again), the others read the files it
 * wrote. What only the live construct tree shows is read from it at synth time and stored beside the template:
 * cdk-nag's AwsSolutions findings and the acknowledged rules with their reasons (`cdk-nag.test.ts`).
 * The stack code, CDK's constructs and cdk-nag are imported only when the key is synthesized, so a file that
 * reads the cache loads none of them (about a second of each such file).
 * Files that need other context (flags, targets, extra routes) or change the live tree keep `synth()`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { PROJECT_ROOT } from '../../infra/cdk/project-root';
import { templateFunctions, type CfnTemplate } from '../../infra/tooling/cloud-assembly';
import { tableKeys, type TableKey } from '../../shared/db/tables';

/** What cdk-nag's AwsSolutions pack reports when run over the live stack (`validateScope`). */
export interface NagFindings {
  success: boolean;
  violations: { ruleName: string; constructPaths: (string | undefined)[] }[];
}

/** A rule acknowledged on a construct (`Validations.of(c).acknowledge`), with its written reason. */
export interface Acknowledgment {
  path: string;
  id: string;
  reason: string;
}

export interface SharedSynth {
  json: CfnTemplate;
  /** The same template for `aws-cdk-lib/assertions` queries. */
  template: Template;
  /** The cloud assembly folder (template, manifest); read it, never write to it. */
  outdir: string;
  functionId(name: string): string;
  /** Logical id of a table in the template (its construct path is `<stack>/Tables/<key>/Resource`). */
  tableId(key: TableKey): string;
  /** Logical id → table key, for reading grants and environment references. */
  tableByLogicalId: Map<string, TableKey>;
  nag: NagFindings;
  acknowledgments: Acknowledgment[];
}

/** What the synth reads, and this file (what it stores); a change to any of these files must change the key. */
const INPUTS = ['infra', 'shared', 'functions', 'bin', 'cdk.json', 'tsconfig.json', 'package-lock.json', 'test/support/shared-synth.ts'];
/** The options of the shared synth, part of the key. */
const OPTIONS = { bundling: false, context: {} };
const CACHE_ROOT = join(tmpdir(), 'appsource-shared-synth');
const TEMPLATE_FILE = 'shared-template.json';
const CHECKS_FILE = 'shared-checks.json';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A lock older than this is a synth that died (a whole synth takes well under a minute even on a busy machine). */
const STALE_LOCK_MS = 5 * 60 * 1000;
const LOCK_OWNER = 'pid';

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

/** Every acknowledgment on the construct and its descendants, as the construct tree holds them. */
function acknowledgments(root: IConstruct, key: string): Acknowledgment[] {
  const found: Acknowledgment[] = [];
  const walk = (c: IConstruct) => {
    for (const entry of c.node.metadata) {
      if (entry.type !== key) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, unknown>)) found.push({ path: c.node.path, id, reason: String(reason) });
    }
    c.node.children.forEach(walk);
  };
  walk(root);
  return found;
}

/** Synthesizes the default stack into `dir` (beside it, then renamed into place: a reader sees all or nothing). */
async function synthesizeInto(dir: string, key: string): Promise<void> {
  const [{ createApp }, { AwsSolutionsChecks }, { Validations }] = await Promise.all([import('../../infra/cdk/create-app'), import('cdk-nag'), import('aws-cdk-lib')]);
  const work = mkdtempSync(join(CACHE_ROOT, `.${key}-`));
  // The synth runs every check createApp registers (cdk-nag as a validation plugin, CloudFormation's resource
  // schemas) and throws on a finding, so a template in the cache passed them.
  const { stack } = createApp({ ...OPTIONS, outdir: work });
  writeFileSync(join(work, TEMPLATE_FILE), JSON.stringify(Template.fromStack(stack).toJSON()));
  const report = new AwsSolutionsChecks().validateScope(stack);
  const nag: NagFindings = { success: report.success, violations: report.violations.map((v) => ({ ruleName: v.ruleName, constructPaths: v.violatingResources.map((r) => r.constructPath) })) };
  writeFileSync(join(work, CHECKS_FILE), JSON.stringify({ nag, acknowledgments: acknowledgments(stack, Validations.ACKNOWLEDGED_RULES_METADATA_KEY) }));
  // A folder without the checks file is one an older form of this file wrote: replaced.
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(work, dir);
  } catch {
    // Another worker renamed its copy first: the same key holds the same template.
    rmSync(work, { recursive: true, force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockAbandoned(lock: string): boolean {
  const stat = statSync(lock, { throwIfNoEntry: false });
  if (!stat) return false;
  if (Date.now() - stat.mtimeMs > STALE_LOCK_MS) return true;
  let owner: number;
  try {
    owner = Number(readFileSync(join(lock, LOCK_OWNER), 'utf8'));
  } catch {
    // No owner written yet (taken a moment ago), or released meanwhile.
    return false;
  }
  return owner > 0 && !processAlive(owner);
}

/**
 * Makes sure the key's folder exists: synthesizes it, or, when another worker holds the key's lock (it is
 * synthesizing the same stack), waits for its folder instead of doing the same work at the same time.
 */
async function ensureSynthesized(dir: string, key: string): Promise<void> {
  const lock = join(CACHE_ROOT, `.${key}.lock`);
  while (!existsSync(join(dir, CHECKS_FILE))) {
    mkdirSync(CACHE_ROOT, { recursive: true });
    try {
      mkdirSync(lock);
    } catch {
      // Held: wait, unless its owner is gone (a run stopped mid-synth) or it is older than any synth.
      if (lockAbandoned(lock)) rmSync(lock, { recursive: true, force: true });
      else await sleep(200);
      continue;
    }
    writeFileSync(join(lock, LOCK_OWNER), String(process.pid));
    try {
      if (!existsSync(join(dir, CHECKS_FILE))) await synthesizeInto(dir, key);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    pruneOld(key);
  }
}

let memo: Promise<SharedSynth> | undefined;

/** The default stack's template and assembly, synthesized at most once per source tree. */
export function sharedSynth(): Promise<SharedSynth> {
  return (memo ??= load());
}

async function load(): Promise<SharedSynth> {
  const key = sharedSynthKey();
  const dir = join(CACHE_ROOT, key);
  await ensureSynthesized(dir, key);
  const json = JSON.parse(readFileSync(join(dir, TEMPLATE_FILE), 'utf8')) as CfnTemplate;
  const checks = JSON.parse(readFileSync(join(dir, CHECKS_FILE), 'utf8')) as { nag: NagFindings; acknowledgments: Acknowledgment[] };
  const ids = new Map(templateFunctions(json).map((fn) => [fn.name, fn.logicalId]));
  const functionId = (name: string) => {
    const id = ids.get(name);
    if (!id) throw new Error(`no function ${name}`);
    return id;
  };
  const tableId = (key: TableKey) => {
    const found = Object.entries(json.Resources).filter(([, r]) => r.Type === 'AWS::DynamoDB::Table' && String(r.Metadata?.['aws:cdk:path']).endsWith(`/Tables/${key}/Resource`));
    if (found.length !== 1) throw new Error(`${found.length} tables ${key}`);
    return found[0]![0];
  };
  const tableByLogicalId = new Map(tableKeys.map((k) => [tableId(k), k]));
  return { json, template: Template.fromJSON(json), outdir: dir, functionId, tableId, tableByLogicalId, nag: checks.nag, acknowledgments: checks.acknowledgments };
}
