/**
 * The calls table of `npm run bench`: every route of the route table, one request at a time, with the
 * DynamoDB calls it makes and their sequential round trips counted at the wire (the counting proxy), beside
 * the floor the route must meet where one is set (calls and sequential round trips: issue 41's table in
 * test/README.md says which dependency holds each route where it is). A route of the table without a case here is listed as not
 * measured, so a new route shows up as a gap rather than vanishing.
 */
import { randomBytes } from 'node:crypto';
import { routes } from '../../shared/routes';
import { importDevice } from '../../shared/domain/devices/device-import';
import { makeDraft, makeOwner, makeUser, newUdid, type Owner } from '../support/fixtures';
import type { ApiResponse, TestApi } from '../support/api';
import type { WireCounter } from './wire-counter';
import { documentClient } from '../../shared/db/client';
import { setClock } from '../../shared/clock';

interface CallsCase {
  /** The route-table function the case exercises. */
  fn: string;
  name: string;
  /** The `i`-th request, and the status it must answer (so a case measures the path it names). */
  send: (i: number) => Promise<ApiResponse>;
  status: number;
  /** The floor the product promises for this route, where one is set: at most this many calls and round trips. */
  floor?: { calls: number; trips?: number };
  /** At most this many requests (a route whose per-minute limit is lower than the run). */
  most?: number;
  /** Run after each request, outside the count (puts back what the request took away). */
  after?: () => Promise<unknown>;
}

export interface CallsRow {
  fn: string;
  name: string;
  requests: number;
  calls: number;
  trips: number;
  byOperation: Record<string, number>;
  floor?: { calls: number; trips?: number };
  /** Capacity units DynamoDB reported per request (ReturnConsumedCapacity TOTAL), reads and writes. */
  rcu: number;
  wcu: number;
  /** Milliseconds per request, one at a time (the local API's whole handling, DynamoDB Local's included). */
  ms: number;
}

let consumed = { read: 0, write: 0 };
const metered = new WeakSet<object>();

/**
 * Asks DynamoDB for the capacity every call consumes and adds it up: what a route's item sizes cost in
 * on-demand request units (a transaction's doubling included), the figure `npm run cost` prices. Only the bench
 * does this; the product never asks for capacity.
 */
function meterCapacity(): void {
  const client = documentClient();
  if (metered.has(client)) return;
  metered.add(client);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const out = await next(args);
      const reported = (out.output as { ConsumedCapacity?: CapacityReport | CapacityReport[] }).ConsumedCapacity;
      for (const c of reported === undefined ? [] : Array.isArray(reported) ? reported : [reported]) {
        // DynamoDB Local reports CapacityUnits alone on some operations: a write operation's units are writes.
        consumed.read += c.ReadCapacityUnits ?? 0;
        consumed.write += c.WriteCapacityUnits ?? 0;
        if (c.ReadCapacityUnits === undefined && c.WriteCapacityUnits === undefined) consumed[WRITES.has(context.commandName ?? '') ? 'write' : 'read'] += c.CapacityUnits ?? 0;
      }
      return out;
    },
    { step: 'initialize', name: 'benchCapacityMeter' },
  );
}
interface CapacityReport {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

const round = (n: number) => Math.round(n * 100) / 100;

/** Builds the cases' fixtures: an owner with a source, published apps, a device key, codes, a certificate. */
async function cases(api: TestApi, requests: number): Promise<CallsCase[]> {
  const owner: Owner = await makeOwner({ balance: 100_000_000 });
  const sid = owner.source.source_id;
  const manage = `/api/appstore/manage/sources/${sid}`;
  const bearer = owner.bearer;
  const ok = async (res: Promise<ApiResponse>) => {
    const r = await res;
    if (r.body.code !== 1) throw new Error(`bench fixture: ${JSON.stringify(r.body)}`);
    return r;
  };
  const publish = async (name: string, lock: 0 | 1 = 0) => {
    const draft = await makeDraft(sid, { name, version: `1.${Math.random().toString().slice(2, 8)}`, lock });
    await ok(api.request('POST', `${manage}/apps/${draft.id}/publish`, { headers: bearer }));
    return draft.id;
  };
  await publish('Open');
  const lockedId = await publish('Locked', 1);
  const flipping = await publish('Flipping');
  // The reseller profile of `npm run cost` has one source of 30 apps: the feed's reads are measured at that size.
  // Published an hour earlier by the clock, so they do not spend the publish cases' per-minute budget.
  const restoreClock = setClock(() => Date.now() - 3_600_000);
  try {
    for (let a = 0; a < 27; a++) await publish(`Catalog ${a}`);
  } finally {
    restoreClock();
  }
  const udid = newUdid();
  const device = await importDevice({ userId: owner.user.userId, udid }, 1_700_000_000);
  const keyed = new URL((await ok(api.request('GET', `${manage}/device-url?udid=${udid}`, { headers: bearer }))).body.data!.url as string).search;
  const codes = ((await ok(api.request('POST', `${manage}/unlock-codes`, { headers: bearer, json: { count: 100, days: 30 } }))).body.data!.codes as { code: string }[]).map((c) => c.code);
  const feed = `/api/rjy/${sid}/appstore`;
  const doc = (await api.request('GET', `${feed}${keyed}`)).body as { apps: { name: string; downloadURL: string }[] };
  const gate = new URL(doc.apps.find((a) => a.name === 'Open')!.downloadURL);
  const drafts: number[] = [];
  for (let d = 0; d < 40; d++) drafts.push((await makeDraft(sid, { name: `Calls ${d}`, version: `3.0.${d}` })).id);
  // A repeated add: the first add registers the UDID, every later one finds its certificate.
  const repeatUdid = randomBytes(20).toString('hex');
  await ok(api.request('POST', '/api/adddevice/v2', { json: { token: owner.token, udid: repeatUdid } }));
  const token = owner.token;
  const kid = device.kid;
  // Drafts to delete and news items to delete, one per request (the warm-up request takes one too).
  const deletable: number[] = [];
  for (let d = 0; d < requests + 1; d++) deletable.push((await makeDraft(sid, { name: `Deleted ${d}`, version: `4.0.${d}` })).id);
  // Cold cases: a token or a device key this instance has not read yet, a fresh one per request (the warm-up
  // request takes the last), so the first request's cost on a new instance is measured beside the warm one's.
  const fresh = (i: number) => Math.min(i, requests);
  const coldDevices: Array<{ token: string; kid: string }> = [];
  const coldKeys: string[] = [];
  for (let d = 0; d < requests + 1; d++) {
    const { user, token: coldToken } = await makeUser();
    coldDevices.push({ token: coldToken, kid: (await importDevice({ userId: user.userId, udid: newUdid() }, 1_700_000_000)).kid });
    coldKeys.push(new URL((await ok(api.request('GET', `${manage}/device-url?udid=${newUdid()}`, { headers: bearer }))).body.data!.url as string).search);
  }
  const newsIds: string[] = [];
  for (let d = 0; d < requests + 1; d++) newsIds.push((await ok(api.request('POST', `${manage}/news`, { headers: bearer, json: { title: `News ${d}`, caption: 'Counted.' } }))).body.data!.news_id as string);
  return [
    { fn: 'source-feed', name: 'feed, no UDID', send: () => api.request('GET', feed), status: 200, floor: { calls: 2, trips: 1 } },
    { fn: 'source-feed', name: 'feed, device key (dk)', send: () => api.request('GET', `${feed}${keyed}`), status: 200, floor: { calls: 2, trips: 1 } },
    { fn: 'source-feed', name: 'feed, device key new to the instance (dk, cold)', send: (i) => api.request('GET', `${feed}${coldKeys[fresh(i)]}`), status: 200, floor: { calls: 3, trips: 2 } },
    { fn: 'source-feed', name: 'feed, claimed UDID', send: () => api.request('GET', `${feed}?udid=${udid}`), status: 200, floor: { calls: 2, trips: 1 } },
    { fn: 'source-feed', name: 'feed, unlock with a code', send: (i) => api.request('GET', `${feed}?udid=${newUdid()}&code=${codes[i % codes.length]}`), status: 200 },
    { fn: 'source-feed', name: 'feed, misuse report (device key)', send: () => api.request('POST', `${feed}${keyed}`, { json: { value: Buffer.from(`|${udid}`).toString('base64') } }), status: 200 },
    { fn: 'source-icon', name: 'placeholder icon', send: () => api.request('GET', `/api/rjy/${sid}/icon.png`), status: 200 },
    { fn: 'download-gate', name: 'download gate (302)', send: () => api.request('GET', `${gate.pathname}${gate.search}`), status: 302, floor: { calls: 2, trips: 1 } },
    { fn: 'device-info', name: 'device info (kid)', send: () => api.request('GET', `/api/device/info?token=${token}&kid=${kid}`), status: 200, floor: { calls: 2, trips: 1 } },
    { fn: 'device-info', name: 'device info, token new to the instance (kid, cold)', send: (i) => api.request('GET', `/api/device/info?token=${coldDevices[fresh(i)]!.token}&kid=${coldDevices[fresh(i)]!.kid}`), status: 200, floor: { calls: 2, trips: 2 } },
    { fn: 'device-status', name: 'device status (enable, kid)', send: () => api.request('GET', `/api/device/status?token=${token}&kid=${kid}&action=enable`), status: 200, floor: { calls: 2, trips: 2 } },
    { fn: 'device-status', name: 'device status (toggle, kid)', send: () => api.request('GET', `/api/device/status?token=${token}&kid=${kid}&action=toggle`), status: 200, floor: { calls: 2, trips: 2 } },
    { fn: 'add-device', name: 'add v2, repeated (certificate found)', send: () => api.request('POST', '/api/adddevice/v2', { json: { token, udid: repeatUdid } }), status: 200, floor: { calls: 3, trips: 2 } },
    { fn: 'add-device', name: 'add v2, instant, new UDID', send: () => api.request('POST', '/api/adddevice/v2', { json: { token, udid: randomBytes(20).toString('hex') } }), status: 200, floor: { calls: 10, trips: 6 } },
    { fn: 'add-device-legacy-instant', name: 'legacy instant add, repeated', send: () => api.request('POST', '/api/adddevice', { json: { token, udid: repeatUdid } }), status: 200, floor: { calls: 3, trips: 2 } },
    { fn: 'add-device-legacy-review', name: 'legacy review add, unknown token', send: () => api.request('POST', '/api/addyydevice', { json: { token: 'nope', udid: repeatUdid } }), status: 200 },
    { fn: 'update-source', name: 'update source', send: (i) => api.request('PATCH', manage, { headers: bearer, json: { name: `calls ${i}` } }), status: 200, floor: { calls: 2, trips: 2 } },
    { fn: 'publish-app', name: 'publish app', send: (i) => api.request('POST', `${manage}/apps/${drafts[i]}/publish`, { headers: bearer }), status: 200, floor: { calls: 4, trips: 3 } },
    { fn: 'create-app', name: 'create app draft', send: (i) => api.request('POST', `${manage}/apps`, { headers: bearer, json: { name: `Created ${i}`, version: '1.0' } }), status: 200 },
    { fn: 'update-app', name: 'update app (published)', send: (i) => api.request('PATCH', `${manage}/apps/${lockedId}`, { headers: bearer, json: { description: `calls ${i}` } }), status: 200 },
    {
      fn: 'unpublish-app',
      name: 'unpublish app (published again after each, not counted)',
      send: () => api.request('POST', `${manage}/apps/${flipping}/unpublish`, { headers: bearer }),
      after: () => ok(api.request('POST', `${manage}/apps/${flipping}/publish`, { headers: bearer })),
      status: 200,
    },
    { fn: 'source-health', name: 'link health', send: () => api.request('GET', `${manage}/health`, { headers: bearer }), status: 200 },
    { fn: 'source-health-check', name: 'link health check (no alerting apps due)', send: () => api.request('POST', `${manage}/health/check`, { headers: bearer }), status: 200 },
    { fn: 'unlock-codes', name: 'unlock codes, list', send: () => api.request('GET', `${manage}/unlock-codes`, { headers: bearer }), status: 200 },
    { fn: 'list-blocklist', name: 'block list', send: () => api.request('GET', `${manage}/blocklist`, { headers: bearer }), status: 200 },
    { fn: 'blocklist-entry', name: 'block by hand', send: () => api.request('PUT', `${manage}/blocklist/${newUdid()}`, { headers: bearer }), status: 200 },
    { fn: 'device-url', name: 'device URL (issued before)', send: () => api.request('GET', `${manage}/device-url?udid=${udid}`, { headers: bearer }), status: 200 },
    { fn: 'device-list', name: 'device list', send: () => api.request('GET', `/api/device/list?token=${token}`), status: 200 },
    { fn: 'user-balance', name: 'balance', send: () => api.request('GET', `/api/user/balance?token=${token}`), status: 200 },
    { fn: 'user-ledger', name: 'ledger', send: () => api.request('GET', `/api/user/ledger?token=${token}`), status: 200 },
    { fn: 'subscription', name: 'subscription', send: () => api.request('GET', '/api/appstore/manage/subscription', { headers: bearer }), status: 200 },
    { fn: 'sources', name: 'list sources', send: () => api.request('GET', '/api/appstore/manage/sources', { headers: bearer }), status: 200 },
    { fn: 'source-detail', name: 'source detail', send: () => api.request('GET', manage, { headers: bearer }), status: 200 },
    { fn: 'list-apps', name: 'list apps', send: () => api.request('GET', `${manage}/apps`, { headers: bearer }), status: 200 },
    { fn: 'delete-app', name: 'delete a draft', send: () => api.request('DELETE', `${manage}/apps/${deletable.shift()}`, { headers: bearer }), status: 200 },
    { fn: 'user-webhook', name: 'webhook (none set)', send: () => api.request('GET', '/api/user/webhook', { headers: bearer }), status: 200 },
    { fn: 'user-webhook-test', name: 'webhook test (none set: refused)', send: () => api.request('POST', '/api/user/webhook/test', { headers: bearer }), status: 409, most: 5 },
    { fn: 'user-events', name: 'events', send: () => api.request('GET', '/api/user/events', { headers: bearer }), status: 200 },
    { fn: 'install-page', name: 'install page (no ticket)', send: () => api.request('GET', `/api/rjy/${sid}/install`), status: 200 },
    { fn: 'udid-profile', name: 'UDID profile (signed)', send: () => api.request('GET', `/api/udid/profile?return=${encodeURIComponent(`${api.url}/api/customer`)}&user=${owner.user.userId}`), status: 200 },
    { fn: 'source-udid-profile', name: "a source's UDID profile (signed)", send: () => api.request('GET', `/api/rjy/${sid}/udid.mobileconfig`), status: 200 },
    { fn: 'udid-captures', name: 'UDID captures', send: () => api.request('GET', `/api/udid/captures?token=${token}`), status: 200 },
    { fn: 'source-news', name: 'news list', send: () => api.request('GET', `${manage}/news`, { headers: bearer }), status: 200 },
    { fn: 'news-entry', name: 'delete a news item', send: () => api.request('DELETE', `${manage}/news/${newsIds.shift()}`, { headers: bearer }), status: 200 },
  ];
}

/**
 * Runs each case `requests` times one at a time (the unpublish case re-publishes between requests, outside
 * the count) and answers the table's rows, routes without a case included with zero requests.
 */
export async function measureRouteCalls(api: TestApi, wire: WireCounter, requests: number): Promise<CallsRow[]> {
  meterCapacity();
  const list = await cases(api, requests);
  const rows: CallsRow[] = [];
  for (const c of list) {
    const n = Math.min(c.fn === 'add-device' && c.name.includes('new UDID') ? Math.min(requests, 5) : requests, c.most ?? requests);
    await c.send(n + 1000); // warm: modules loaded, tenant cached
    await c.after?.();
    let calls = 0;
    let trips = 0;
    let elapsed = 0;
    consumed = { read: 0, write: 0 };
    const byOperation: Record<string, number> = {};
    for (let i = 0; i < n; i++) {
      const before = wire.counts();
      const wavesBefore = wire.waves();
      const sent = performance.now();
      const res = await c.send(i);
      elapsed += performance.now() - sent;
      const after = wire.counts();
      if (res.status !== c.status) throw new Error(`${c.name}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      trips += wire.waves() - wavesBefore;
      for (const [op, v] of Object.entries(after)) {
        const d = v - (before[op] ?? 0);
        if (d > 0) {
          byOperation[op] = (byOperation[op] ?? 0) + d;
          calls += d;
        }
      }
      await c.after?.();
    }
    rows.push({
      fn: c.fn,
      name: c.name,
      requests: n,
      calls: round(calls / n),
      trips: round(trips / n),
      byOperation: Object.fromEntries(Object.entries(byOperation).map(([k, v]) => [k, round(v / n)])),
      ...(c.floor ? { floor: c.floor } : {}),
      rcu: round(consumed.read / n),
      wcu: round(consumed.write / n),
      ms: round(elapsed / n),
    });
  }
  for (const route of routes) if (!rows.some((r) => r.fn === route.function)) rows.push({ fn: route.function, name: '(not measured)', requests: 0, calls: 0, trips: 0, byOperation: {}, rcu: 0, wcu: 0, ms: 0 });
  return rows;
}

export function printCallsTable(rows: readonly CallsRow[], print: (line: string) => void = console.log): number {
  print('## DynamoDB calls per request, every route (one request at a time, counted at the wire)\n');
  print('Calls and sequential round trips (calls in flight together count once) as the counting proxy in front of DynamoDB Local sees them, warm (the tenant of the Host cached). Capacity units: what DynamoDB reported the calls consumed (ReturnConsumedCapacity, added by the bench only), the figures `npm run cost` prices. ms: one request at a time, the local API\'s whole handling.\n');
  print('| route (function) | request | requests | calls/request | round trips | by operation | RCU | WCU | ms | floor | met |');
  print('|---|---|---:|---:|---:|---|---:|---:|---:|---|---|');
  let missed = 0;
  for (const r of rows) {
    const floor = r.floor ? `≤ ${r.floor.calls} calls${r.floor.trips ? `, ≤ ${r.floor.trips} round trips` : ''}` : '';
    const met = !r.floor ? '' : r.calls <= r.floor.calls && (r.floor.trips === undefined || r.trips <= r.floor.trips) ? 'yes' : 'NO';
    if (met === 'NO') missed++;
    const ops = Object.entries(r.byOperation).map(([op, v]) => `${op} ${v}`).join(', ');
    print(`| ${r.fn} | ${r.name} | ${r.requests} | ${r.requests ? r.calls : '—'} | ${r.requests ? r.trips : '—'} | ${ops} | ${r.requests ? r.rcu : '—'} | ${r.requests ? r.wcu : '—'} | ${r.requests ? r.ms : '—'} | ${floor} | ${met} |`);
  }
  print(`\n${missed === 0 ? 'Every floor is met.' : `${missed} floor(s) missed.`}\n`);
  return missed;
}
