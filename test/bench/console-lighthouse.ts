/**
 * `npm run bench:console [-- --url http://127.0.0.1:3000]`: Lighthouse (the npm package, pinned at 12.2.3) on
 * the reseller console with Debian's Chromium, as a phone (Lighthouse's default mobile emulation and simulated
 * slow 4G) and as a desktop, and prints performance, accessibility and best practices with the load figures.
 * Without --url it starts its own local runtime (DynamoDB Local, the simulator, the demo data) on free ports.
 * A benchmark, not a test: the README records its figures with the date.
 */
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { buildConsole } from '../../infra/tooling/console-build';
import { freePort } from '../../infra/local/free-port';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

const { values } = parseArgs({ options: { url: { type: 'string' }, path: { type: 'string', default: '/console/' } } });

await buildConsole({ quiet: true });
let stop: (() => Promise<void>) | undefined;
let base = values.url;
if (!base) {
  const { startLocalRuntime } = await import('../../infra/local/start');
  const runtime = await startLocalRuntime({ port: await freePort(), dynamoPort: await freePort(), dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined, ascSimPort: await freePort() });
  base = runtime.apiUrl;
  stop = () => runtime.stop();
}

const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
const categories = ['performance', 'accessibility', 'best-practices'];
const rows: string[] = [];
try {
  for (const [name, config] of [
    ['phone (simulated slow 4G)', undefined],
    ['desktop', desktopConfig],
  ] as const) {
    const result = await lighthouse(`${base}${values.path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories }, config);
    if (!result) throw new Error('Lighthouse gave no result');
    const { lhr } = result;
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const metric = (id: string) => lhr.audits[id]?.displayValue ?? '—';
    const failed = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id);
    rows.push(
      `| ${name} | ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${metric('first-contentful-paint')} | ${metric('largest-contentful-paint')} | ${metric('total-blocking-time')} | ${metric('total-byte-weight')} |`,
    );
    if (failed.length) console.error(`${name}: audits not passed: ${failed.join(', ')}`);
  }
} finally {
  await chrome.kill();
  await stop?.();
}
console.log(`Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version} on ${values.path}, ${new Date().toISOString().slice(0, 10)}`);
console.log('| run | performance | accessibility | best practices | first contentful paint | largest contentful paint | total blocking time | bytes |');
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
