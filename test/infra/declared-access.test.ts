/**
 * The grants come from what the route table declares, and IAM only bites when deployed (DynamoDB Local has
 * no IAM). So check the declarations against the code: every table a function's own code can reach must be
 * granted. esbuild follows the imports and drops unreachable code; `tableName("<key>")` calls in what
 * remains are the tables the code can touch. This is an analysis build, not a deployable bundle.
 */
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

async function tablesReached(fnName: string, chainExcluded: boolean): Promise<Set<string>> {
  const out = await build({
    entryPoints: [`functions/${fnName}/handler.ts`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
    plugins: chainExcluded ? [withoutChain] : [],
  });
  const code = out.outputFiles[0]!.text;
  return new Set([...code.matchAll(/\btableName\d*\(\s*"(\w+)"\s*\)/g)].map((m) => m[1]!));
}

const functions = deployedFunctions();

test.each(functions.map((fn) => [fn.name, fn] as const))('%s: every table its code can reach is granted', async (name, fn) => {
  const granted = new Set<string>([...fn.access.read, ...fn.access.write]);
  const reached = await tablesReached(name, fn.kind === 'route');
  // The analysis finds something wherever the entry declares tables (a route that declares none, such as a
  // static icon, has nothing to find).
  const declares = fn.kind === 'route' && (fn.route.data.read?.length ?? 0) + (fn.route.data.write?.length ?? 0) > 0;
  if (declares) expect(reached.size).toBeGreaterThan(0);
  expect([...reached].filter((table) => !granted.has(table)).sort()).toEqual([]);
});

test('the chain excluded from the analysis is the one that reads the tenant (sanity check of the analysis)', async () => {
  const feed = functions.find((fn) => fn.kind === 'route' && fn.route.auth === 'none')!;
  expect(await tablesReached(feed.name, false)).toContain('tenants' satisfies TableKey);
  expect(await tablesReached(feed.name, true)).not.toContain('tenants' satisfies TableKey);
});
