/**
 * The floor plan (README, "Where things live") holds only if imports respect it. Read from the sources' import
 * graph, transitively: a module that reaches a forbidden floor through a permitted one breaks the rule as much
 * as a direct import.
 *
 * infra/: the operator CLI and the stack run without the local runtime or the App Store Connect simulator, and
 * the code deployed to Lambda (shared/, functions/) never pulls in infra/.
 *
 * shared/, from the top floor down: the request chain (`http/`) over the route table, the input rules
 * (`validation/`) and the domain services (`domain/`); under the services the repositories (`db/`); under the
 * repositories the stored records and their field lists (`records/`); at the bottom the generic parts (`apple/`,
 * `fetch/`, `i18n/`, `secrets/` and the single modules: windows, ids, clock, …). A floor imports only the floors
 * under it, so a repository imports records, never a service, and nothing below the chain imports the chain.
 *
 * functions/: every function folder is a leaf. What two functions share lives in shared/ (`handlers/` for a
 * business handler several routes run, `validation/` for a parse, `contracts/` for a documented shape).
 *
 * The environment: `shared/config.ts` is the one module of the deployed code that reads `process.env`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => posix.join(folder, file.split('\\').join('/')));
}

/** A relative specifier as the bundler resolves it (extensionless, or a folder's index). */
function resolve(from: string, specifier: string): string | undefined {
  const base = posix.join(posix.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}/index.ts`, base.replace(/\.js$/, '.ts')].find((candidate) => candidate.endsWith('.ts') && existsSync(join(ROOT, candidate)));
}

const importsOf = new Map<string, string[]>();
function localImports(file: string): string[] {
  let found = importsOf.get(file);
  if (!found) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    found = importedFiles.filter(({ fileName }) => fileName.startsWith('.')).flatMap(({ fileName }) => resolve(file, fileName) ?? []);
    importsOf.set(file, found);
  }
  return found;
}

/** `file` is `place` (a module) or lies under it (a folder). */
const within = (file: string, place: string) => (place.endsWith('.ts') ? file === place : file.startsWith(`${place}/`));

/** The first import chain from `start` to a file under one of `forbidden`, if there is one. */
function chainToForbidden(start: string, forbidden: readonly string[]): string[] | undefined {
  const cameFrom = new Map<string, string | undefined>([[start, undefined]]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (forbidden.some((place) => within(file, place))) {
      const chain: string[] = [];
      for (let at: string | undefined = file; at !== undefined; at = cameFrom.get(at)) chain.unshift(at);
      return chain;
    }
    for (const next of localImports(file)) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return undefined;
}

const rules = [
  {
    who: 'the operator CLI and the stack',
    files: [...sourcesUnder('infra/admin'), ...sourcesUnder('infra/cdk'), 'bin/admin.ts', 'bin/app.ts'],
    forbidden: ['infra/local', 'infra/asc-simulator'],
  },
  { who: 'the code deployed to Lambda', files: [...sourcesUnder('shared'), ...sourcesUnder('functions')], forbidden: ['infra'] },
  {
    who: 'the floors under the request chain (domain, validation, route table, repositories, records, generic parts)',
    files: [
      ...['domain', 'validation', 'db', 'records', 'apple', 'fetch', 'i18n', 'secrets', 'jobs', 'observability'].flatMap((folder) => sourcesUnder(`shared/${folder}`)),
      ...sourcesUnder('shared/routes'),
    ],
    forbidden: ['shared/http', 'functions'],
  },
  { who: 'the repositories', files: sourcesUnder('shared/db'), forbidden: ['shared/domain', 'shared/validation', 'shared/routes'] },
  { who: 'the records', files: sourcesUnder('shared/records'), forbidden: ['shared/db', 'shared/domain', 'shared/validation', 'shared/routes'] },
  {
    who: 'the generic parts (Apple, fetch, i18n, secrets)',
    files: ['apple', 'fetch', 'i18n', 'secrets'].flatMap((folder) => sourcesUnder(`shared/${folder}`)),
    forbidden: ['shared/records', 'shared/db', 'shared/domain', 'shared/validation', 'shared/routes'],
  },
];

describe.each(rules)('$who', ({ files, forbidden }) => {
  it(`reach nothing under ${forbidden.join(' or ')}`, () => {
    expect(files.length).toBeGreaterThan(10);
    const violations = files.flatMap((file) => chainToForbidden(file, forbidden)?.join(' → ') ?? []);
    expect(violations).toEqual([]);
  });
});

it('keeps every function folder a leaf: a function imports its own folder and shared/, never another function', () => {
  const functionFiles = sourcesUnder('functions');
  expect(functionFiles.length).toBeGreaterThan(50);
  const crossings = functionFiles.flatMap((file) => {
    const own = file.split('/').slice(0, 2).join('/');
    return localImports(file)
      .filter((target) => !within(target, own) && !within(target, 'shared'))
      .map((target) => `${file} → ${target}`);
  });
  expect(crossings).toEqual([]);
});

it('reads the environment in shared/config.ts alone', () => {
  const deployed = [...sourcesUnder('shared'), ...sourcesUnder('functions')];
  const readers = deployed.filter((file) => file !== 'shared/config.ts' && /\bprocess\.env\b/.test(readFileSync(join(ROOT, file), 'utf8')));
  expect(readers).toEqual([]);
  expect(readFileSync(join(ROOT, 'shared/config.ts'), 'utf8')).toMatch(/process\.env/);
});

it('loads node-forge through shared/apple/forge.ts alone, where its slow RSA and PKCS#12 key derivation are replaced', () => {
  const sources = ['shared', 'functions', 'infra', 'bin', 'test'].flatMap((folder) => sourcesUnder(folder));
  const direct = sources.filter((file) => file !== 'shared/apple/forge.ts' && /^import [^;]* from 'node-forge';/m.test(readFileSync(join(ROOT, file), 'utf8')));
  expect(direct).toEqual([]);
  expect(sources).toContain('test/apple/forge-native.test.ts');
});

it('follows the import forms the sources use', () => {
  // The CLI reaches the stack's outputs and the shared code: a graph that found no edges would pass vacuously.
  expect(chainToForbidden('bin/admin.ts', ['infra/cdk'])).toEqual(expect.arrayContaining(['bin/admin.ts', 'infra/cdk/stack-outputs.ts']));
  expect(chainToForbidden('bin/local.ts', ['infra/asc-simulator'])).toEqual(['bin/local.ts', 'infra/local/start.ts', 'infra/asc-simulator/server.ts']);
  // A single module named as a place: the table list reaches the device record for its field list.
  expect(chainToForbidden('shared/db/tables.ts', ['shared/records/device.ts'])).toEqual(['shared/db/tables.ts', 'shared/records/device.ts']);
});
