/**
 * `npm run cost`: what the product costs deployed, from the last full `npm run bench` (test/bench/results.json:
 * every route's capacity units and milliseconds as measured) at AWS's prices (aws-prices.ts, with their date
 * and region). Prints, and writes to the results page, the price per million requests of each measured route
 * and a reseller's month at the profile below, with the feed's stage cache off and on, beside a small server.
 *
 * Options: `--results FILE` (another bench's results.json), `--no-write` (print only).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { routes } from '../../shared/routes';
import { functionMemoryMb } from '../../infra/cdk/constructs/service-function';
import { PRICES, SMALL_SERVER } from './aws-prices';
import { RESULTS_JSON, type BenchSummary } from './bench-summary';
import { DAYS_PER_MONTH, month, requestCost, type RequestUsage, type TrafficLine } from './cost-model';
import { writeResults } from './results-page';

const { values } = parseArgs({ options: { results: { type: 'string', default: RESULTS_JSON }, 'no-write': { type: 'boolean', default: false } } });

/** The reseller the issue names: 5,000 devices, 50,000 feed refreshes a day, 200 adds a day, one source of 30 apps. */
export const PROFILE = {
  devices: 5000,
  feedRefreshesPerDay: 50_000,
  addsPerDay: 200,
  apps: 30,
  /** Share of the refreshes made through a device's own feed URL (the rest read the source's plain address). */
  deviceKeyShare: 0.5,
} as const;

/**
 * Assumed, not measured: CloudWatch bytes per request (API Gateway's access-log line, about 600 bytes, and
 * Lambda's START/END/REPORT lines, about 400, with the function's own line when it writes one).
 */
const LOG_BYTES = 1200;
/** The feed's stage cache keys a plain read by Host and Accept (two forms): one miss per key per TTL (60 s). */
const PLAIN_FEED_MISSES_PER_DAY = 2 * 24 * 60;
/** Assumed: a function's container starts cold every 15 minutes it is in use (INIT is billed since 2025-08). */
const COLD_STARTS_PER_DAY = 96;

if (!existsSync(values.results)) {
  console.error(`No ${values.results}: run \`npm run bench\` first (a full run writes it).`);
  process.exit(2);
}
const bench = JSON.parse(readFileSync(values.results, 'utf8')) as BenchSummary;
const memoryOf = (fn: string) => functionMemoryMb(routes.find((r) => r.function === fn && 'secrets' in r && r.secrets) !== undefined);
const usageOf = (row: BenchSummary['calls'][number]): RequestUsage => ({ rcu: row.rcu, wcu: row.wcu, ms: row.ms, memoryMb: memoryOf(row.fn), logBytes: LOG_BYTES, ...(memoryOf(row.fn) > 512 ? { kmsRequests: 1 } : {}) });
const row = (fn: string, name: string) => {
  const found = bench.calls.find((r) => r.fn === fn && r.name.includes(name) && r.requests > 0);
  if (!found) throw new Error(`results.json has no measured "${fn}: ${name}" row`);
  return found;
};

const out: string[] = [];
const print = (line = '') => {
  console.log(line);
  out.push(line);
};
const usd = (n: number, digits = 2) => `$${n.toFixed(digits)}`;

print(`Prices: AWS list prices, ${PRICES.region}, as of ${PRICES.asOf} (test/bench/aws-prices.ts), free tiers left out. Usage: the bench run of ${bench.at} (load average at its start ${bench.loadAverage[0]?.join(', ') ?? 'n/a'}): DynamoDB's reported capacity units per request and the milliseconds a request took one at a time on that machine (taken as Lambda's billed duration; Lambda's arm64 CPU at 512 MB is slower than the bench's, so read them as a floor). ${LOG_BYTES} log bytes per request assumed; the functions that decrypt Apple account secrets run at 1,024 MB and count one KMS request.\n`);
print('# Per million requests, each measured route\n');
print('| route (function) | request | memory MB | RCU | WCU | ms | Lambda | API Gateway | DynamoDB | logs | KMS | total per million |');
print('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of bench.calls.filter((r) => r.requests > 0)) {
  const u = usageOf(r);
  const c = requestCost(u, PRICES);
  const m = (n: number) => usd(n * 1e6);
  print(`| ${r.fn} | ${r.name} | ${u.memoryMb} | ${r.rcu} | ${r.wcu} | ${r.ms} | ${m(c.lambda)} | ${m(c.apiGateway)} | ${m(c.dynamoDb)} | ${m(c.logs)} | ${m(c.kms)} | ${m(c.total)} |`);
}

const keyed = row('source-feed', 'device key');
const plain = row('source-feed', 'no UDID');
const instant = row('add-device', 'instant, new UDID');
const traffic: TrafficLine[] = [
  { name: `feed refresh through a device's URL (${PROFILE.deviceKeyShare * 100}%): cached per device, so the cache does not help`, perDay: PROFILE.feedRefreshesPerDay * PROFILE.deviceKeyShare, usage: usageOf(keyed) },
  {
    name: `feed refresh of the plain address (${(1 - PROFILE.deviceKeyShare) * 100}%): one shared cache entry per form`,
    perDay: PROFILE.feedRefreshesPerDay * (1 - PROFILE.deviceKeyShare),
    usage: usageOf(plain),
    missesPerDayWithCache: PLAIN_FEED_MISSES_PER_DAY,
  },
  { name: 'instant add of a new UDID (Apple is free)', perDay: PROFILE.addsPerDay, usage: usageOf(instant) },
];
// Cold starts: the INIT phase of the functions the profile uses, at their measured import time.
for (const fn of ['source-feed', 'add-device']) {
  const importMs = bench.imports[fn]?.importMs;
  if (importMs === undefined) continue;
  traffic.push({ name: `cold starts of ${fn} (${COLD_STARTS_PER_DAY} a day, ${importMs} ms of INIT each, the bundle's measured import time)`, perDay: COLD_STARTS_PER_DAY, usage: { rcu: 0, wcu: 0, ms: importMs, memoryMb: memoryOf(fn), logBytes: 0 }, init: true });
}
const off = month(traffic, false, PRICES);
const on = month(traffic, true, PRICES);
print(`\n# A reseller's month: ${PROFILE.devices.toLocaleString('en')} devices, ${PROFILE.feedRefreshesPerDay.toLocaleString('en')} feed refreshes and ${PROFILE.addsPerDay} adds a day, one source of ${PROFILE.apps} apps (${DAYS_PER_MONTH} days)\n`);
print('| | requests (or cold starts) a month | stage cache off | stage cache on |');
print('|---|---:|---:|---:|');
for (let i = 0; i < off.lines.length; i++) print(`| ${off.lines[i]!.name} | ${off.lines[i]!.requests.toLocaleString('en')} | ${usd(off.lines[i]!.dollars)} | ${usd(on.lines[i]!.dollars)} |`);
for (const f of on.fixed) print(`| ${f.name} | | ${usd(off.fixed.find((o) => o.name === f.name)?.dollars ?? 0)} | ${usd(f.dollars)} |`);
print(`| DynamoDB storage (${PROFILE.devices.toLocaleString('en')} certificates of some 12 KB: well under the 25 GB AWS does not charge for) | | $0.00 | $0.00 |`);
print(`| **total** | | **${usd(off.total)}** | **${usd(on.total)}** |`);
print(`\nBeside ${SMALL_SERVER.description}: ${usd(SMALL_SERVER.monthly)} a month. At this profile the stage cache costs more than it saves (it pays for itself only when plain-address reads run to millions a month); it is there to shield the functions from a flood, not to save money.`);

const cheaper = Math.min(off.total, on.total);
const figure = `${usd(cheaper)} a month for a reseller with ${PROFILE.devices.toLocaleString('en')} devices, ${PROFILE.feedRefreshesPerDay.toLocaleString('en')} feed refreshes and ${PROFILE.addsPerDay} adds a day (stage cache off; ${usd(on.total)} with it), against ${usd(SMALL_SERVER.monthly)} for a small server`;
print(`\n${figure}.`);
if (!values['no-write']) writeResults({ name: 'cost', title: 'npm run cost', markdown: out.join('\n'), figure });
