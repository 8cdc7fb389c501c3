/**
 * The domain's rules ask for their stores by name (`store('ledger')`, shared/domain/stores.ts), and each
 * process wires them once at its entry. A function whose handler reaches a rule that asks for a store must
 * import that store's wiring (`shared/stores/<name>.ts`), or its first such request fails at run time. The
 * test suites wire every store themselves, so only this reading of the import graph catches a handler that
 * forgot: tests through the local API would pass.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const sourcesUnder = (folder: string) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => posix.join(folder, file.split('\\').join('/')));

function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith('.')) return [];
    const base = posix.join(posix.dirname(file), fileName);
    return [`${base}.ts`, `${base}/index.ts`].filter((candidate) => existsSync(join(ROOT, candidate))).slice(0, 1);
  });
}

/** Every module `start` reaches through its imports, itself included. */
function reach(start: string): Set<string> {
  const seen = new Set([start]);
  for (const file of seen) for (const next of localImports(file)) seen.add(next);
  return seen;
}

/** Domain modules → the stores they ask for. */
const asks = new Map(
  sourcesUnder('shared/domain').flatMap((file) => {
    const names = [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\bstore\('([a-z]+)'\)/g)].map((m) => m[1]!);
    return names.length > 0 ? [[file, new Set(names)] as const] : [];
  }),
);

const handlers = readdirSync(join(ROOT, 'functions')).map((fn) => `functions/${fn}/handler.ts`).filter((file) => existsSync(join(ROOT, file)));

test('the rules ask for stores, and each store has its wiring', () => {
  expect([...asks.values()].flatMap((names) => [...names])).toContain('ledger');
  for (const name of new Set([...asks.values()].flatMap((names) => [...names]))) expect(existsSync(join(ROOT, `shared/stores/${name}.ts`))).toBe(true);
});

test('every function that reaches a rule asking for a store wires that store', () => {
  const unwired = handlers.flatMap((handler) => {
    const reached = reach(handler);
    const needed = new Set([...asks].filter(([file]) => reached.has(file)).flatMap(([, names]) => [...names]));
    return [...needed].filter((name) => !reached.has(`shared/stores/${name}.ts`)).map((name) => `${handler} needs shared/stores/${name}.ts`);
  });
  expect(unwired).toEqual([]);
  // The graph is read: the add reaches the ledger's rules.
  expect(reach('functions/add-device/handler.ts').has('shared/domain/ledger/ledger.ts')).toBe(true);
});
