/**
 * Every example of the READMEs runs as written on a fresh `npm start` and answers what the README shows
 * (issue 45). How (test/README.md, "The README examples"):
 *
 * - The runtime is `npm start`'s own entry (`bin/local.ts`) on free ports, over the test run's DynamoDB Local.
 *   The main README runs on the demo data its banner names, with the banner's shell variables (TOKEN, SOURCE,
 *   KID, UDID, CODE, USER_ID). Each folder README runs on demo data of its own, seeded the same way for a new
 *   demo user, as if it were a fresh `npm start`; `$B` and `"${H[@]}"` are the main README's.
 * - Each README's ```sh lines run in order in one bash, as pasted. `127.0.0.1:3000` is the runtime's address and `127.0.0.1:3001` its App Store Connect simulator;
 *   another loopback port an example listens on is moved to a free port. `npm run --silent admin -- …` and
 *   `npm run --silent device-sim -- …` run the same commands against the same runtime, in this process.
 * - Placeholders: `<source>` is the source's id; `Hq…` (any `X…`) in a command is the value the same elision
 *   matched in an earlier answer; a literal value an answer shows and a later command uses (an unlock code) is
 *   the value answered; an upper-case `$NAME` no line sets is the field `name` of the latest answer
 *   (`$LOCATION`).
 * - A block after `<!-- readme-examples: skip — why -->` is not run.
 *
 * A failure names the README, the line and the difference.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../infra/local/free-port';
import { runAdmin } from '../../infra/admin/cli';
import { runDeviceSim } from '../../infra/device-simulator/cli';
import { seedDemo, seedDemoPlan } from '../../infra/local/seed';
import { demoShellVariables } from '../../infra/local/start';
import { createCode } from '../../shared/domain/pricing/activation-codes';
import { nowSeconds } from '../../shared/clock';
import { readBlocks, type Block } from './readme-examples';
import { checkAnswer, readOutput } from './example-check';
import { ShellSession } from './shell-session';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API_HOST = '127.0.0.1:3000';
/** `npm start`'s App Store Connect simulator (its default `ASC_SIM_PORT`). */
const SIM_HOST = '127.0.0.1:3001';

/** The READMEs whose examples run: the main one first, then every folder README with examples. */
function readmes(): string[] {
  const shared = readdirSync(join(ROOT, 'shared/domain'))
    .map((d) => `shared/domain/${d}/README.md`)
    .filter((f) => {
      try {
        return readBlocks(f, ROOT).length > 0;
      } catch {
        return false;
      }
    });
  return ['README.md', 'shared/http/README.md', 'infra/README.md', 'infra/admin/import/README.md', 'test/README.md', ...shared.sort()].filter((f) => readBlocks(f, ROOT).length > 0);
}

function waitForBanner(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`npm start printed no banner within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Press Ctrl-C to stop')) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
}

let runtime: ChildProcess;
let apiUrl: string;
let bannerVariables: Record<string, string>;
let downloadsUrl: string;
let cliServer: Server;
let cliUrl: string;
/** The App Store Connect simulator's port: the README's `127.0.0.1:3001` (its control port for a team's key). */
let simPort: number;

beforeAll(async () => {
  const tablePrefix = `readme${Math.random().toString(36).slice(2, 8)}-`;
  process.env.TABLE_PREFIX = tablePrefix;
  const port = await freePort();
  simPort = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), ASC_SIM_PORT: String(simPort), TABLE_PREFIX: tablePrefix, POWERTOOLS_LOG_LEVEL: 'SILENT' };
  // npm start as a user runs it: the test run's own settings (IPA inspection off, caches off) are not its.
  for (const name of ['IPA_INSPECTION', 'TENANT_CACHE_SECONDS', 'OWNER_CACHE_SECONDS', 'NODE_OPTIONS']) delete env[name];
  runtime = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['bin/local.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const banner = await waitForBanner(runtime, 90_000);
  apiUrl = /API:\s+(\S+)/.exec(banner)![1]!;
  downloadsUrl = /Demo IPAs:\s+(\S+)/.exec(banner)![1]!;
  const line = banner.split('\n').find((l) => /^\s+TOKEN=/.test(l))!;
  bannerVariables = Object.fromEntries(line.trim().split(/\s+/).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  // One command at a time, as from one terminal: the READMEs run side by side, and the device simulator's
  // CA is made by the first command that needs it.
  let queue: Promise<unknown> = Promise.resolve();
  cliServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { tool, argv } = JSON.parse(body) as { tool: string; argv: string[] };
      let stdout = '';
      let stderr = '';
      const out = (s: string) => void (stdout += s);
      const err = (s: string) => void (stderr += s);
      queue = queue.then(async () => {
        const code = tool === 'admin' ? await runAdmin(argv, out, err) : await runDeviceSim(argv, out, err);
        res.end(JSON.stringify({ code, stdout, stderr }));
      });
    });
  });
  await new Promise<void>((resolve) => cliServer.listen(0, '127.0.0.1', resolve));
  cliUrl = `http://127.0.0.1:${(cliServer.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (cliServer ? cliServer.close(() => resolve()) : resolve()));
  if (runtime && runtime.exitCode === null) {
    const exited = new Promise((resolve) => runtime.once('exit', resolve));
    runtime.kill('SIGINT');
    await exited;
  }
});

/** A fresh demo user, source, device and code, seeded as `npm start` seeds its own. */
async function freshDemo(): Promise<Record<string, string>> {
  const demo = await seedDemo(downloadsUrl);
  await seedDemoPlan(demo.userId);
  const code = await createCode({ userId: demo.userId, mode: 'instant', tier: 1 }, nowSeconds());
  return demoShellVariables(demo, code.code, downloadsUrl);
}

const ENVELOPE_SHOWN = /^[{[]|HTTP|\d{3}\b/;

async function runReadme(file: string): Promise<{ ran: string[]; failures: string[] }> {
  const blocks: Block[] = readBlocks(file, ROOT);
  const variables = file === 'README.md' ? bannerVariables : await freshDemo();
  const mainBlocks = readBlocks('README.md', ROOT);
  const bh = mainBlocks.flatMap((b) => b.examples).find((e) => /^B=http:\/\/127\.0\.0\.1:3000; H=\(/.test(e.command));
  const ports = new Map<string, string>([
    [API_HOST, apiUrl.replace(/^http:\/\//, '')],
    [SIM_HOST, `127.0.0.1:${simPort}`],
  ]);
  const prelude = [
    ...Object.entries(variables).map(([k, v]) => `${k}='${v}'`),
    `npm() { if [ "$1" = run ] && [ "$2" = --silent ] && { [ "$3" = admin ] || [ "$3" = device-sim ]; } && [ "$4" = -- ]; then local tool=$3; shift 4; node '${join(ROOT, 'test/readme/cli-client.js')}' "$tool" "$@"; else echo "not an example command: npm $*" >&2; return 127; fi; }`,
    file === 'README.md' || !bh ? '' : bh.command.replace(API_HOST, ports.get(API_HOST)!),
  ].join('\n');
  const shell = new ShellSession({ ...process.env, README_CLI_URL: cliUrl }, prelude);
  const bindings = new Map<string, string>();
  const assigned = new Set(['B', 'H', ...Object.keys(variables)]);
  const ran: string[] = [];
  const failures: string[] = [];
  let latestJson: unknown;
  const allCommands = blocks.filter((b) => !b.skip).flatMap((b) => b.examples.map((e) => ({ line: e.line, command: e.command })));
  try {
    for (const block of blocks) {
      if (block.skip) {
        ran.push(`${file}:${block.line} (${block.heading}) — not run: ${block.skip}`);
        continue;
      }
      // A block showing a rate limit's 429 counts requests within one calendar minute: start it early in one.
      if (block.examples.some((x) => x.answer?.text.includes('429')) && new Date().getUTCSeconds() > 40) {
        await new Promise((resolve) => setTimeout(resolve, (61 - new Date().getUTCSeconds()) * 1000));
      }
      for (const example of block.examples) {
        const where = `${file}:${example.line}`;
        const failed = (what: string) => failures.push(`${where} (${block.heading}): ${what}\n    ${example.command.split('\n').join('\n    ')}`);
        let command = await localize(example.command, ports);
        command = command.split('<source>').join(variables.SOURCE!);
        for (const [key, value] of [...bindings].sort((a, b) => b[0].length - a[0].length)) command = command.split(key).join(value);
        const unbound = /[A-Za-z0-9_]*…/.exec(command);
        if (unbound) {
          failed(`"${unbound[0]}" stands for a value no earlier answer of this README showed`);
          continue;
        }
        for (const m of command.matchAll(/\b([A-Z][A-Z0-9_]*)=/g)) assigned.add(m[1]!);
        const unset: string[] = [];
        for (const m of command.matchAll(/\$\{?([A-Z][A-Z0-9_]*)\b/g)) {
          const name = m[1]!;
          if (assigned.has(name)) continue;
          const value = fieldOf(latestJson, name.toLowerCase());
          if (value === undefined) unset.push(name);
          else command = `${name}='${value.replace(/'/g, `'\\''`)}'; ${command}`;
        }
        if (unset.length) {
          failed(`$${unset.join(', $')} is set by no earlier line, banner value or answer`);
          continue;
        }
        ran.push(`${where} (${block.heading})`);
        const run = await shell.run(command).catch((error: Error) => ({ status: -1, stdout: '', stderr: error.message }));
        if (run.status !== 0) {
          failed(`exited ${run.status}: ${(run.stderr || run.stdout).trim().slice(0, 400)}`);
          continue;
        }
        const output = readOutput(run.stdout);
        if (output.json !== undefined) latestJson = output.json;
        const later = allCommands.filter((c) => c.line > example.line).map((c) => c.command);
        const context = { source: variables.SOURCE!, isSample: (literal: string) => later.some((c) => c.includes(literal)) };
        if (example.answer && ENVELOPE_SHOWN.test(example.answer.text.replace(/^(→|stdout:)\s*/, ''))) {
          let shown = await localize(example.answer.text, ports);
          // A sample value bound from an earlier answer is that value in later answers too.
          for (const [key, value] of bindings) if (!key.includes('…')) shown = shown.split(key).join(value);
          const result = checkAnswer(shown, run.stdout, context);
          result.bindings.forEach((v, k) => bindings.set(k, v));
          if (result.differences.length) {
            failures.push(`${file}:${example.answer.line} (${block.heading}): the answer differs from the README's:\n  - ${result.differences.join('\n  - ')}\n    command (line ${example.line}): ${example.command.split('\n')[0]}\n    answered: ${run.stdout.trim().slice(0, 600)}`);
          }
        } else {
          const envelope = output.json as { code?: unknown; data?: { error?: unknown } } | undefined;
          if (envelope && typeof envelope === 'object' && typeof envelope.code === 'number' && envelope.code !== 1) {
            failed(`answered code ${envelope.code}${envelope.data?.error ? ` (${String(envelope.data.error)})` : ''}, and the README shows no refusal: ${run.stdout.trim().slice(0, 300)}`);
          }
        }
      }
    }
  } finally {
    await shell.close();
  }
  return { ran, failures };
}

/** `127.0.0.1:3000` → the runtime; another loopback port → a free one, the same for the whole README. */
async function localize(text: string, ports: Map<string, string>): Promise<string> {
  for (const m of text.matchAll(/127\.0\.0\.1:(\d{4,5})|\.listen\((\d{4,5})\b/g)) {
    const hostPort = `127.0.0.1:${m[1] ?? m[2]}`;
    if (!ports.has(hostPort)) ports.set(hostPort, `127.0.0.1:${await freePort()}`);
  }
  return text
    .replace(/127\.0\.0\.1:\d{4,5}/g, (hostPort) => ports.get(hostPort)!)
    .replace(/\.listen\((\d{4,5})\b/g, (_, port: string) => `.listen(${ports.get(`127.0.0.1:${port}`)!.split(':')[1]}`);
}

/** A field of an answer, at its top level or in `data`. */
function fieldOf(json: unknown, name: string): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const record = json as Record<string, unknown>;
  const value = record[name] ?? (typeof record.data === 'object' && record.data !== null ? (record.data as Record<string, unknown>)[name] : undefined);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/**
 * Each README runs on demo data of its own, so they run side by side (a few at a time: the machine is shared),
 * started as soon as the runtime is up; each test reports its README.
 */
const files = readmes();
const runs = new Map<string, Promise<{ ran: string[]; failures: string[] }>>();
const AT_ONCE = 3;

/**
 * `ledger check` proves every user of every tenant and wants no hold in flight anywhere: a README that runs it
 * would see another README's add half-way. Those READMEs run one by one once the others are done.
 */
const provesEveryLedger = (file: string) => readBlocks(file, ROOT).some((block) => !block.skip && block.examples.some((example) => /\bledger check\b/.test(example.command)));

function startRuns(): void {
  const queue = files.filter((file) => !provesEveryLedger(file));
  const alone = files.filter(provesEveryLedger);
  const slot = async (): Promise<void> => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const run = runReadme(file);
      runs.set(file, run);
      await run.catch(() => undefined);
    }
  };
  void Promise.all(Array.from({ length: AT_ONCE }, slot)).then(async () => {
    for (const file of alone) {
      const run = runReadme(file);
      runs.set(file, run);
      await run.catch(() => undefined);
    }
  });
}

/** A README's run, once a slot has started it. */
async function runOf(file: string): Promise<{ ran: string[]; failures: string[] }> {
  while (!runs.has(file)) await new Promise((resolve) => setTimeout(resolve, 100));
  return runs.get(file)!;
}

describe('the READMEs\' examples run as written on a fresh npm start', () => {
  beforeAll(() => startRuns());
  // With `-t` some tests do not wait for their README: let every run end before the runtime stops.
  afterAll(async () => {
    while (runs.size < files.length) await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.allSettled(runs.values());
  }, 120_000);
  for (const file of files) {
    test(file, async () => {
      const { ran, failures } = await runOf(file);
      if (process.env.README_EXAMPLES_LIST) console.log(ran.join('\n'));
      if (failures.length) throw new Error(`${failures.length} example(s) of ${file} do not run as written:\n\n${failures.join('\n\n')}`);
      expect(ran.length).toBeGreaterThan(0);
    }, 120_000);
  }
});

