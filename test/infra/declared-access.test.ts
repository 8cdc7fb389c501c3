/**
 * The grants come from what the route table declares, and IAM only bites when deployed (DynamoDB Local has
 * no IAM). So check the declarations against the code: every table a function's own code can reach must be
 * granted. esbuild follows the imports and drops unreachable code; `tableName("<key>")` calls in what
 * remains are the tables the code can touch. This is an analysis build, not a deployable bundle.
 */
import { basename } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { deployedFunctions } from '../../infra/cdk/function-access';
import type { TableKey } from '../../shared/db/tables';

/**
 * The shared Middy chain reaches tenants, users and rate-limit counters in every bundle, but uses users and
 * counters only when the route's entry says so (auth, rateLimit); its grants follow that rule and are
 * checked in stack-template.test.ts. Here only the function's own code is analysed.
 */
const withoutChain: Plugin = {
  name: 'without-chain',
  setup(b) {
    b.onResolve({ filter: /\/shared\/http\/(create-handler|create-public-handler)$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * The tables each named function's code reaches, from one esbuild run over all their entries: without code
 * splitting each entry still gets a bundle of its own (what a build of it alone gives), and the shared code is
 * parsed once instead of once per function.
 */
async function tablesReachedBy(fnNames: readonly string[], chainExcluded: boolean): Promise<Map<string, Set<string>>> {
  const out = await build({
    entryPoints: fnNames.map((name) => ({ in: `functions/${name}/handler.ts`, out: name })),
    outdir: 'analysis',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
    plugins: chainExcluded ? [withoutChain] : [],
  });
  const byName = new Map(out.outputFiles.map((file) => [basename(file.path, '.js'), file.text]));
  return new Map(
    fnNames.map((name) => {
      const code = byName.get(name);
      if (code === undefined) throw new Error(`esbuild wrote no bundle for ${name}`);
      return [name, new Set([...code.matchAll(/\btableName\d*\(\s*"(\w+)"\s*\)/g)].map((m) => m[1]!))];
    }),
  );
}

const tablesReached = async (fnName: string, chainExcluded: boolean) => (await tablesReachedBy([fnName], chainExcluded)).get(fnName)!;

const functions = deployedFunctions();

/** Routes are analysed without the shared chain, jobs and consumers with everything they import. */
let reachedByAll: Map<string, Set<string>>;
beforeAll(async () => {
  const routes = functions.filter((fn) => fn.kind === 'route').map((fn) => fn.name);
  const others = functions.filter((fn) => fn.kind !== 'route').map((fn) => fn.name);
  const [fromRoutes, fromOthers] = await Promise.all([tablesReachedBy(routes, true), tablesReachedBy(others, false)]);
  reachedByAll = new Map([...fromRoutes, ...fromOthers]);
}, 120_000);

test.each(functions.map((fn) => [fn.name, fn] as const))('%s: every table its code can reach is granted', (name, fn) => {
  const granted = new Set<string>([...fn.access.read, ...fn.access.write]);
  const reached = reachedByAll.get(name)!;
  // The analysis finds something wherever the entry declares tables (a route that declares none, such as a
  // static icon, has nothing to find).
  const declares = fn.kind === 'route' && (fn.route.data.read?.length ?? 0) + (fn.route.data.write?.length ?? 0) > 0;
  if (declares) expect(reached.size).toBeGreaterThan(0);
  expect([...reached].filter((table) => !granted.has(table)).sort()).toEqual([]);
});

test('the chain excluded from the analysis is the one that reads the tenant (sanity check of the analysis)', async () => {
  const feed = functions.find((fn) => fn.kind === 'route' && fn.route.auth === 'none')!;
  const job = functions.find((fn) => fn.kind !== 'route')!;
  // The three builds alone at once (esbuild runs them side by side); the feed's build without the chain serves
  // both of the checks below that read it.
  const [feedWithChain, feedAlone, jobAlone] = await Promise.all([tablesReached(feed.name, false), tablesReached(feed.name, true), tablesReached(job.name, false)]);
  expect(feedWithChain).toContain('tenants' satisfies TableKey);
  expect(feedAlone).not.toContain('tenants' satisfies TableKey);
  // The one-run analysis of every function finds what a build of the function alone finds.
  expect(reachedByAll.get(feed.name)).toEqual(feedAlone);
  expect(reachedByAll.get(job.name)).toEqual(jobAlone);
});
