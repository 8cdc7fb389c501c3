/**
 * `npm run bench`: the request path at its DynamoDB floor, and the bundles beside the bare SDK.
 *
 * 1. Routes: the local runtime (the handler modules Lambda runs) on DynamoDB Local, behind a counting proxy.
 *    Per route: DynamoDB calls per request counted at the wire, and requests per second at concurrency 16,
 *    and p50/p99 latency, beside raw GetItem operations per second and their p50/p99 measured in the same run,
 *    on the same DynamoDB Local, through the same proxy and SDK client, after a warm-up. Efficiency = req/s × calls ÷ raw GetItem/s: 1 would mean
 *    a request costs no more than its calls as raw GetItems; 0.75 means one raw GetItem's worth more. For
 *    device info, its own calls are also replayed without the product around them, which splits efficiency
 *    into the product's own work and what the calls cost DynamoDB Local beside a raw GetItem.
 *    The requests come from autocannon in a process of its own, as a real client would be; the CPU the bench's
 *    process, DynamoDB Local and the load generator spend per request (and the first two per raw GetItem) is
 *    printed beside, so a reader can see which side a route's cost lies on (DynamoDB Local spends more on an
 *    UpdateItem than on a GetItem).
 * 2. Bundles: every function and a bare handler that reads one item through the SDK v3 document client,
 *    built in the same run with the stack's esbuild settings; minified size, and import time in fresh
 *    processes paired with the bare bundle's (alternating which goes first), the ratio the median of the pairs'.
 *
 * 0. Calls: every route of the route table, one request at a time, its DynamoDB calls and their sequential
 *    round trips counted at the wire, with the capacity units DynamoDB reports and the milliseconds, beside the
 *    floors where they are set (route-calls.ts).
 *
 * A full run writes its tables to test/bench/results.md, its figures to test/bench/results.json (what
 * `npm run cost` prices) and its headline to the README (results-page.ts); a partial one only prints, unless
 * `--write`.
 *
 * Options: `--calls-only` (the calls table, then the bundles), `--requests N` per round (default 1000), `--rounds N` per route (default 3), `--warmup N` the most
 * warm-up requests per repeatable route (default 20000; it stops sooner once DynamoDB Local's CPU per request
 * stops falling), `--import-runs N` (default 25), `--skip-bundles`,
 * `--skip-routes`, `--only TEXT` (only the routes whose name contains TEXT), `--write` (write the page even
 * after a partial run). A shorter full run for a before/after comparison on a busy machine:
 * `--requests 500 --rounds 2 --warmup 6000 --import-runs 9`.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
// The benches and the soak call the domain directly too: the stores every function wires.
import '../../shared/stores/all';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal, type RunningDynamoDb } from '../../infra/local/dynamodb-local';
import { freePort } from '../../infra/local/free-port';
import { startAscSimulator } from '../../infra/asc-simulator/server';
import { simulatedAccountInput } from '../../infra/admin/simulated-account';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { addAccount } from '../../shared/domain/accounts/account-service';
import { importDevice } from '../../shared/domain/devices/device-import';
import { hashToken } from '../../shared/domain/users/tokens';
import { findTokenOwnerWith } from '../../shared/db/repositories/user-repository';
import { deviceRecordRead } from '../../shared/db/repositories/device-repository';
import { incrementWithinLimit } from '../../shared/db/repositories/rate-limit-repository';
import { startTestApi } from '../support/api';
import { makeDraft, makeOwner, newUdid, type Owner } from '../support/fixtures';
import { BASELINE, buildBundles, median, pairedImportTimes } from './bundles';
import { allowedRatio } from './bundle-limits';
import { startWireCounter } from './wire-counter';
import { measureRouteCalls, printCallsTable } from './route-calls';
import { percentile, startLoadGenerator, type LoadRequest } from './load';
import { cpuPerOperation, meanCpu, readCpu, type CpuReading } from './cpu';
import { machine, writeResults } from './results-page';
import { headline, RESULTS_JSON, type BenchSummary } from './bench-summary';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
// The metric lines would interleave with the report; the bench measures the request path, not CloudWatch.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
if (!process.env.ACCOUNT_SECRETS_KEY_FILE) {
  const keyFile = `/tmp/bench-key-${randomBytes(4).toString('hex')}`;
  process.env.ACCOUNT_SECRETS_KEY_FILE = keyFile;
  process.once('exit', () => rmSync(keyFile, { force: true }));
}
// The fixture apps point at download hosts that do not exist, as in the test suite (test/support/env.ts):
// publish is measured taking the IPA on trust. With inspection on, publishing an unchanged file adds one HEAD
// to the origin and no DynamoDB call (README, "Apps that install").
process.env.IPA_INSPECTION ??= 'off';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000' },
    'import-runs': { type: 'string', default: '25' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '20000' },
    'skip-bundles': { type: 'boolean', default: false },
    'skip-routes': { type: 'boolean', default: false },
    'calls-only': { type: 'boolean', default: false },
    write: { type: 'boolean' },
    only: { type: 'string' },
  },
});
/** A count option: a whole number from 1 up, or the bench stops before it starts anything. */
function count(option: 'requests' | 'import-runs' | 'rounds' | 'warmup'): number {
  const value = Number(values[option]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`--${option} must be a whole number from 1 up (got "${values[option]}")`);
    process.exit(2);
  }
  return value;
}
const REQUESTS = count('requests');
const IMPORT_RUNS = count('import-runs');
const ROUNDS = count('rounds');
const WARMUP = count('warmup');
const WARMUP_BATCH = 2000;
const WARMUP_MIN = Math.min(WARMUP, 6000);
const CONCURRENCY = 16;
/** Requests per case of the calls table (one at a time). */
const CALLS_REQUESTS = 10;
/** Ends the routes part after the calls table (`--calls-only`). */
class CallsOnly extends Error {}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const ms = (v: number | undefined) => (v === undefined ? 'n/a' : v.toFixed(2));

/** Runs `total` calls of `step(i)` with `concurrency` workers; returns per-second throughput. */
async function pump(total: number, step: (i: number) => Promise<void>, concurrency = CONCURRENCY): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) await step(i);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

interface RouteResult {
  route: string;
  requests: number;
  reqPerSec: number;
  calls: number;
  byOperation: Record<string, number>;
  /** Raw GetItem ops/s around this round. */
  rawOps: number;
  /** CPU ms per request, and per raw GetItem around this round. */
  cpu: CpuReading;
  rawCpu: CpuReading;
  /** The load generator's CPU ms per request. */
  clientCpu: number;
  /** The route's own DynamoDB calls made without the product around them, in the same round. */
  replay?: { perSecond: number; cpu: CpuReading };
  /** Every round's efficiency, in the order run (the table shows the best round). */
  efficiencies?: number[];
  /** The route's latency percentiles (ms, as its client saw them), and the raw GetItem's around the round. */
  p50: number;
  p99: number;
  rawP50: number;
  rawP99: number;
}

/** The run's report: printed as it goes, and written to the results page at the end (results-page.ts). */
const report: string[] = [];
function print(line = ''): void {
  console.log(line);
  report.push(line);
}
/** The run's figures in a form `npm run cost` reads (results.json beside the page). */
const summary: BenchSummary = { at: new Date().toISOString(), loadAverage: [], calls: [], latency: [], imports: {} };
const loadNow = () => loadavg().map((l) => round(l));
summary.loadAverage.push(loadNow());

print(`# Benchmark ${new Date().toISOString()}\nmachine: ${machine()}\nIPA inspection: ${process.env.IPA_INSPECTION === 'off' ? "off (publish takes the fixture apps' IPAs on trust, as in the test suite)" : 'on'}\n`);

if (!values['skip-routes']) {
  let dynamo: RunningDynamoDb | undefined;
  const target = process.env.DYNAMODB_ENDPOINT ?? (dynamo = await startDynamoDbLocal(await freePort())).endpoint;
  const wire = await startWireCounter(target);
  process.env.DYNAMODB_ENDPOINT = wire.endpoint;
  const api = await startTestApi();
  const sim = await startAscSimulator({ port: 0 });
  const loader = startLoadGenerator();
  try {
    for (let i = 0; i < 4; i++) {
      const team = await sim.createTeam({ mode: 'instant' });
      await addAccount(simulatedAccountInput(team, { pool: 'public', tenantId: 'default', mode: 'instant', weight: i }), 1_700_000_000);
    }

    // Every route's calls per request and sequential round trips, one request at a time, before any load.
    summary.calls = await measureRouteCalls(api, wire, CALLS_REQUESTS);
    printCallsTable(summary.calls, print);
    if (values['calls-only']) throw new CallsOnly();

    // Enough owners that no one reaches a route's per-minute limit within a minute (30 for the management routes).
    const owners: Owner[] = [];
    for (let i = 0; i < Math.ceil((REQUESTS * ROUNDS + WARMUP) / 15) + 4; i++) owners.push(await makeOwner({ balance: 100_000_000 }));
    const kids = new Map<string, string>();
    for (const o of owners) kids.set(o.user.userId, (await importDevice({ userId: o.user.userId, udid: newUdid() }, 1_700_000_000)).kid);
    const drafts = new Map<string, number[]>();
    const draftsPerOwner = Math.ceil((REQUESTS * ROUNDS + 50) / owners.length);
    for (const o of owners) {
      const ids: number[] = [];
      for (let d = 0; d < draftsPerOwner; d++) ids.push((await makeDraft(o.source.source_id, { name: `Bench ${d}`, version: `1.0.${d}` })).id);
      drafts.set(o.user.userId, ids);
    }

    // Twice a round's requests: a raw run lasts about as long as a round, so a passing stall weighs on both alike.
    const RAW_OPS = REQUESTS * 2;
    const owner = (i: number) => owners[i % owners.length]!;
    const published = new Map<string, number>();
    const deviceQuery = (i: number) => `token=${owner(i).token}&kid=${kids.get(owner(i).user.userId)}`;
    const cases: Array<{ route: string; concurrency?: number; requests?: number; request: (i: number) => LoadRequest; replay?: (i: number) => Promise<void> }> = [
      {
        route: 'GET /api/device/info',
        request: (i) => ({ method: 'GET', path: `/api/device/info?${deviceQuery(i)}` }),
        // The route's own two calls, made by the same repository code and client with nothing around them,
        // in the route's order (the token and the device in one batch read, then the counter): what the route
        // would cost if the product added nothing (its own bucket, so no limit is reached).
        replay: async (i) => {
          const o = owner(i);
          const { owner: found, items } = await findTokenOwnerWith(hashToken(o.token), { device: deviceRecordRead(kids.get(o.user.userId)!) });
          if (!found) throw new Error('replay: no token owner');
          if (!items.device) throw new Error('replay: no device');
          const hit = await incrementWithinLimit(`bench-replay#user:${o.user.userId}#${Math.floor(Date.now() / 60_000)}`, 1_000_000, 2_000_000_000);
          if (!hit.allowed) throw new Error('replay: limited');
        },
      },
      { route: 'GET /api/device/status (enable, kid)', request: (i) => ({ method: 'GET', path: `/api/device/status?${deviceQuery(i)}&action=enable` }) },
      { route: 'GET /api/device/status (toggle, kid)', request: (i) => ({ method: 'GET', path: `/api/device/status?${deviceQuery(i)}&action=toggle` }) },
      {
        route: 'PATCH update source',
        request: (i) => ({ method: 'PATCH', path: `/api/appstore/manage/sources/${owner(i).source.source_id}`, body: { name: `bench ${i}` }, headers: owner(i).bearer }),
      },
      {
        route: 'POST publish app',
        request: (i) => {
          const o = owner(i);
          const n = published.get(o.user.userId) ?? 0;
          published.set(o.user.userId, n + 1);
          const appId = drafts.get(o.user.userId)![n]!;
          return { method: 'POST', path: `/api/appstore/manage/sources/${o.source.source_id}/apps/${appId}/publish`, headers: o.bearer };
        },
      },
      {
        route: 'POST /api/adddevice/v2 (instant, new UDID)',
        concurrency: 4,
        requests: 60,
        request: (i) => ({ method: 'POST', path: '/api/adddevice/v2', body: { token: owner(i).token, udid: randomBytes(20).toString('hex') } }),
      },
    ];

    const dynamoPid = dynamo?.process.pid;
    /** Runs `n` operations and returns their rate with the CPU both processes spent per operation. */
    const measure = async <T extends { perSecond: number }>(n: number, run: () => Promise<T>) => {
      const before = readCpu(dynamoPid);
      const outcome = await run();
      return { ...outcome, cpu: cpuPerOperation(before, readCpu(dynamoPid), n) };
    };
    const raw = async (n: number) => measure(n, async () => {
      const key = { token_hash: hashToken(owners[0]!.token) };
      const table = tableName('tokens');
      const latencies: number[] = [];
      const perSecond = await pump(n, async () => {
        const sent = performance.now();
        const out = await documentClient().send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
        latencies.push(performance.now() - sent);
        if (!out.Item) throw new Error('raw GetItem found nothing');
      });
      return { perSecond, latencies };
    });

    // Warm-up: the JIT of both processes, the connections, the modules of every handler, the tenant cache. The
    // one add goes first, so what its first run sets off (loading the add function's modules, the JVM compiling
    // the write paths it takes) is over before the routes are warmed, not during their first rounds.
    // DynamoDB Local's JVM keeps getting cheaper at an operation for thousands of calls (device info's JVM CPU
    // per request halves over its first 10,000 requests here), so every repeatable route runs batches until
    // the JVM's CPU per request stops falling: at least WARMUP_MIN requests, then until two batches in a row
    // are not 3% below the best batch so far, at most `--warmup`.
    await loader.run(api.url, 1, () => ({ method: 'POST', path: '/api/adddevice/v2', body: { token: owners.at(-1)!.token, udid: randomBytes(20).toString('hex') } }), 1);
    await raw(2000);
    let warmOffset = REQUESTS * ROUNDS * 4;
    const warmedWith: string[] = [];
    for (const c of cases.filter((c) => !c.route.startsWith('POST publish') && !c.route.includes('adddevice'))) {
      let sent = 0;
      let best = Infinity;
      let flat = 0;
      while (sent < WARMUP && (sent < WARMUP_MIN || flat < 2)) {
        const n = Math.min(WARMUP_BATCH, WARMUP - sent);
        const base = warmOffset;
        warmOffset += n;
        const { cpu } = await measure(n, () => loader.run(api.url, n, (i) => c.request(base + i), CONCURRENCY));
        sent += n;
        // Without DynamoDB Local's pid (an external DYNAMODB_ENDPOINT) there is nothing to watch: all of `--warmup`.
        if (cpu.dynamo === undefined) continue;
        flat = cpu.dynamo < best * 0.97 ? 0 : flat + 1;
        best = Math.min(best, cpu.dynamo);
      }
      warmedWith.push(`${c.route} ${sent}`);
    }
    await raw(2000);

    // A shared machine's load drifts: each round of a route is measured between two raw GetItem runs, and
    // compared with their mean. The better of the rounds is reported (noise only ever slows a round down).
    const results: RouteResult[] = [];
    let offset = 0;
    for (const c of cases.filter((c) => !values.only || c.route.includes(values.only))) {
      const n = c.requests ?? REQUESTS;
      let best: RouteResult | undefined;
      const efficiencies: number[] = [];
      for (let round_ = 0; round_ < (c.requests ? 1 : ROUNDS); round_++) {
        const rawBefore = await raw(RAW_OPS);
        const before = wire.counts();
        const base = offset;
        offset += n;
        const routeRun = await measure(n, () => loader.run(api.url, n, (i) => c.request(base + i), c.concurrency ?? CONCURRENCY));
        const after = wire.counts();
        const replayRun = c.replay ? await measure(n, async () => ({ perSecond: await pump(n, (i) => c.replay!(base + i)) })) : undefined;
        const rawAfter = await raw(RAW_OPS);
        const rawOps = (rawBefore.perSecond + rawAfter.perSecond) / 2;
        const rawLatencies = [...rawBefore.latencies, ...rawAfter.latencies];
        const rawCpu = meanCpu(rawBefore.cpu, rawAfter.cpu);
        const byOperation: Record<string, number> = {};
        for (const [op, v] of Object.entries(after)) if (v > (before[op] ?? 0)) byOperation[op] = round((v - (before[op] ?? 0)) / n);
        const calls = round(Object.values(byOperation).reduce((a, b) => a + b, 0));
        const result = { route: c.route + (c.concurrency ? ` (concurrency ${c.concurrency})` : ''), requests: n, reqPerSec: routeRun.perSecond, calls, byOperation, rawOps, cpu: routeRun.cpu, rawCpu, clientCpu: routeRun.clientCpu, p50: routeRun.p50, p99: routeRun.p99, rawP50: percentile(rawLatencies, 0.5), rawP99: percentile(rawLatencies, 0.99), ...(replayRun ? { replay: { perSecond: replayRun.perSecond, cpu: replayRun.cpu } } : {}) };
        efficiencies.push(round((result.reqPerSec * result.calls) / result.rawOps));
        if (!best || result.reqPerSec * result.calls / result.rawOps > best.reqPerSec * best.calls / best.rawOps) best = result;
      }
      results.push({ ...best!, efficiencies });
    }

    print(`## Routes (concurrency ${CONCURRENCY}, ${REQUESTS} requests each; DynamoDB calls counted at the wire)\n`);
    print(`requests: autocannon, ${CONCURRENCY} keep-alive connections, in a process of its own. raw GetItem: ${CONCURRENCY} concurrent strongly consistent GetItems through the same proxy and client, ${RAW_OPS} before and after each round (their mean); better of ${ROUNDS} rounds per route. Warm-up requests (until DynamoDB Local's CPU per request stopped falling, at most ${WARMUP}): ${warmedWith.join('; ')}. CPU: the bench's Node process (handlers, local API, proxy), DynamoDB Local's JVM and the load generator, per request; the first two per raw GetItem\n`);
    print('| route | calls/request | by operation | req/s | raw GetItem/s | efficiency (req/s × calls ÷ raw) | overhead (raw GetItems per request) | CPU ms/request: Node, DynamoDB Local, load generator | CPU ms/raw GetItem: Node, DynamoDB Local |');
    print('|---|---:|---|---:|---:|---:|---:|---:|---:|');
    for (const r of results) {
      const efficiency = (r.reqPerSec * r.calls) / r.rawOps;
      const overhead = r.rawOps / r.reqPerSec - r.calls;
      const ops = Object.entries(r.byOperation).map(([op, v]) => `${op} ${v}`).join(', ');
      print(`| ${r.route} | ${r.calls} | ${ops} | ${Math.round(r.reqPerSec)} | ${Math.round(r.rawOps)} | ${round(efficiency)} | ${round(overhead, 1)} | ${ms(r.cpu.node)}, ${ms(r.cpu.dynamo)}, ${ms(r.clientCpu)} | ${ms(r.rawCpu.node)}, ${ms(r.rawCpu.dynamo)} |`);
    }
    print(`\n### Latency per route beside a raw GetItem (same run, same DynamoDB Local, concurrency ${CONCURRENCY})\n`);
    print('Milliseconds as the client saw them (the route) and as the SDK saw them (raw strongly consistent GetItems through the same proxy, before and after the round). The ratio divides the machine\'s load out: a route that waits for n round trips of DynamoDB Local, one after another, sits near n plus what the product and the local API spend.\n');
    print('| route | p50 ms | p99 ms | raw GetItem p50 ms | raw GetItem p99 ms | p50 ÷ raw p50 | p99 ÷ raw p99 |');
    print('|---|---:|---:|---:|---:|---:|---:|');
    summary.latency = results.map((r) => ({ route: r.route, p50: round(r.p50), p99: round(r.p99), rawP50: round(r.rawP50), rawP99: round(r.rawP99) }));
    for (const r of results) print(`| ${r.route} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.rawP50)} | ${ms(r.rawP99)} | ${round(r.p50 / r.rawP50, 1)} | ${round(r.p99 / r.rawP99, 1)} |`);
    print(`\nevery round's efficiency: ${results.map((r) => `${r.route} ${r.efficiencies!.join(', ')}`).join('; ')}\n`);
    for (const r of results.filter((r) => r.replay)) {
      const { perSecond, cpu } = r.replay!;
      print(
        `${r.route}, its calls replayed without the product (same repository code, client and proxy, ${CONCURRENCY} concurrent, same round): ${Math.round(perSecond)} sets/s, CPU ms per set ${ms(cpu.node)} Node, ${ms(cpu.dynamo)} DynamoDB Local. ` +
          `The route reaches ${round(r.reqPerSec / perSecond)} of that: the product's own work costs ${round(perSecond / r.reqPerSec - 1)} of its calls' cost per request, ` +
          `and its calls cost ${round((r.rawOps / perSecond) / r.calls)} raw GetItems each.\n`,
      );
    }
  } catch (error) {
    if (!(error instanceof CallsOnly)) throw error;
  } finally {
    await loader.close();
    await sim.close();
    await api.close();
    await wire.close();
    await dynamo?.stop();
  }
}

if (!values['skip-bundles']) {
  const bundles = await buildBundles();
  const base = bundles.find((b) => b.name === BASELINE)!;
  const paired = pairedImportTimes(bundles, base, IMPORT_RUNS);
  const baseMs = median([...paired.values()].map((p) => p.baselineMs));
  print(`## Bundles (stack esbuild settings; import time paired with the bare SDK bundle's: ${IMPORT_RUNS} pairs per function, each import in a fresh Node process, the order alternating)\n`);
  print('| function | minified KiB | × baseline | import ms | baseline import ms (its pairs) | import × baseline (median of the pairs) | limit | within |');
  print('|---|---:|---:|---:|---:|---:|---:|---|');
  print(`| ${BASELINE} | ${(base.bytes / 1024).toFixed(0)} | 1.00 | ${baseMs.toFixed(0)} | | 1.00 | 1 | yes |`);
  let failures = 0;
  for (const b of bundles.filter((b) => b !== base)) {
    const sizeRatio = b.bytes / base.bytes;
    const p = paired.get(b.name)!;
    const limit = allowedRatio(b.name);
    const ok = sizeRatio <= limit && p.ratio <= limit;
    if (!ok) failures++;
    print(`| ${b.name} | ${(b.bytes / 1024).toFixed(0)} | ${sizeRatio.toFixed(2)} | ${p.ms.toFixed(0)} | ${p.baselineMs.toFixed(0)} | ${p.ratio.toFixed(2)} | ${limit} | ${ok ? 'yes' : 'NO'} |`);
    summary.imports[b.name] = { kib: round(b.bytes / 1024, 0), sizeRatio: round(sizeRatio), importMs: round(p.ms, 0), importRatio: round(p.ratio) };
  }
  print(`\n${failures === 0 ? 'Every bundle is within its ratio on both counts.' : `${failures} bundle(s) over their ratio.`}`);
}

summary.loadAverage.push(loadNow());
print(`\nLoad average (1, 5, 15 min) at the start: ${summary.loadAverage[0]!.join(', ')}; at the end: ${summary.loadAverage[1]!.join(', ')} (${cpus().length} cores).`);
// A full run writes its tables to the results page and its figures beside it; a partial one only prints,
// unless asked (`--write`), so a quick look at the calls never replaces a full run's tables.
if (values.write ?? (!values['calls-only'] && !values['skip-routes'] && !values['skip-bundles'] && !values.only)) {
  writeFileSync(RESULTS_JSON, `${JSON.stringify(summary, null, 2)}\n`);
  writeResults({ name: 'hot-path', title: 'npm run bench', markdown: report.join('\n'), figure: headline(summary) });
  console.log(`\nWritten: ${RESULTS_JSON} and its section of test/bench/results.md.`);
}
