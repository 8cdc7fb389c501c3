import { build } from 'esbuild';
import { ESM_REQUIRE_BANNER, EXTERNAL_MODULES } from './infra/constructs/service-function';
for (const name of process.argv.slice(2)) {
  const r = await build({ entryPoints: [`functions/${name}/handler.ts`], write: false, outfile: '/tmp/x/index.mjs', bundle: true, format: 'esm', target: 'node22', platform: 'node', mainFields: ['module','main'], minify: true, charset: 'utf8', external: [...EXTERNAL_MODULES], banner: { js: ESM_REQUIRE_BANNER }, metafile: true, logLevel: 'silent' });
  const out = Object.values(r.metafile.outputs)[0]!;
  // who imports ipaddr: walk importers
  const importers = new Map<string, string[]>();
  for (const [file, info] of Object.entries(r.metafile.inputs)) for (const imp of info.imports) (importers.get(imp.path) ?? importers.set(imp.path, []).get(imp.path)!).push(file);
  const chain = (target: string): string[] => { const seen = new Set<string>(); const path = [target]; let cur = target; while (true) { const up = (importers.get(cur) ?? []).find((f) => !seen.has(f)); if (!up) break; seen.add(up); path.push(up); cur = up; } return path; };
  const ip = Object.keys(r.metafile.inputs).find((f) => f.includes('ipaddr'));
  const own = Object.entries(out.inputs).filter(([f]) => !f.includes('node_modules')).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 12).map(([f, i]) => `${f.replace('shared/', '')}:${(i.bytesInOutput / 1024).toFixed(1)}`);
  console.log(name, out.bytes, ip ? chain(ip).join(' <- ') : 'no ipaddr');
  console.log('   ', own.join(' '));
}
