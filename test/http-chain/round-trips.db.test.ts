/**
 * Each route at its DynamoDB round-trip floor on a warm container (the tenant of the Host cached): the calls a
 * request makes, counted on the document client every handler shares.
 */
import { instrumentDynamoDb, roundTrips, sample } from '../bench/harness';
import { add, simulatedAccount, startTestbed, udid25, newUser, type Testbed } from '../support/add-device-testbed';
import { makeDraft, makeOwner, makeTenant, newUdid, type Owner } from '../support/fixtures';
import { admin } from '../support/admin-cli';
import { importDevice } from '../../shared/domain/devices/device-import';
import { clearTenantCache } from '../../shared/domain/tenants/host-tenant';
import { createEveryTable } from '../support/tables';

let bed: Testbed;
let owner: Owner;
let kid: string;
let previousCache: string | undefined;

beforeAll(async () => {
  previousCache = process.env.TENANT_CACHE_SECONDS;
  process.env.TENANT_CACHE_SECONDS = '30';
  clearTenantCache();
  bed = await startTestbed();
  await createEveryTable(); // its round trips are counted
  await simulatedAccount(bed.sim, { mode: 'instant' });
  owner = await makeOwner({ balance: 100_000 });
  kid = (await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000)).kid;
  instrumentDynamoDb();
  // Warm the container: modules loaded, tenant of the Host cached.
  await bed.api.request('GET', `/api/device/info?token=${owner.token}&kid=${kid}`);
});
afterAll(async () => {
  await bed.close();
  if (previousCache === undefined) delete process.env.TENANT_CACHE_SECONDS;
  else process.env.TENANT_CACHE_SECONDS = previousCache;
});

/** The calls one request makes, as `<table suffix> <Command>`, sorted, and their sequential round trips. */
async function costOf(request: () => Promise<{ status: number; body: { code?: number } }>, expectedCode = 1): Promise<{ calls: string[]; trips: number }> {
  const taken = await sample(async () => {
    const res = await request();
    expect(res.body.code).toBe(expectedCode);
  });
  const prefix = process.env.TABLE_PREFIX ?? '';
  return { calls: taken.calls.map((c) => `${c.table.startsWith(prefix) ? c.table.slice(prefix.length) : c.table} ${c.command}`).sort(), trips: roundTrips(taken.calls) };
}

test('device info, cold (a token this instance has not checked yet): the token and the device in one batch read, then the rate limit — 2 calls in 2 round trips', async () => {
  const fresh = await makeOwner();
  const freshKid = (await importDevice({ userId: fresh.user.userId, udid: newUdid() }, 1_700_000_000)).kid;
  expect(await costOf(() => bed.api.request('GET', `/api/device/info?token=${fresh.token}&kid=${freshKid}`))).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips: 2 });
  // The next request with that token on this instance: the owner's count beside the batch.
  expect(await costOf(() => bed.api.request('GET', `/api/device/info?token=${fresh.token}&kid=${freshKid}`))).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips: 1 });
});

test('device info, warm (the token checked before on this instance): the owner’s count beside the token and the device’s batch read — 2 calls in 1 round trip', async () => {
  expect(await costOf(() => bed.api.request('GET', `/api/device/info?token=${owner.token}&kid=${kid}`))).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips: 1 });
});

test('device status: 2 calls in 2 round trips, enable or toggle (the certificate read with the token, then the certificate, the owner’s copy of "disabled" and the count in one transaction)', async () => {
  const expected = { calls: ['(none) BatchGetItem', '(none) TransactWriteItems'], trips: 2 };
  expect(await costOf(() => bed.api.request('GET', `/api/device/status?token=${owner.token}&kid=${kid}&action=enable`))).toEqual(expected);
  expect(await costOf(() => bed.api.request('GET', `/api/device/status?token=${owner.token}&kid=${kid}&action=toggle`))).toEqual(expected);
  await bed.api.request('GET', `/api/device/status?token=${owner.token}&kid=${kid}&action=enable`);
});

test('device status that finds no device of the caller: the token and the count only — 2 calls in 2 round trips', async () => {
  expect(await costOf(() => bed.api.request('GET', `/api/device/status?token=${owner.token}&kid=${'f'.repeat(32)}&action=enable`), 100)).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips: 2 });
});

test('update source is 2 calls in 2 round trips (the source read with the token, then its transaction carrying the count); publish 4 in 3 (source and app read in one batch while the count is made, then the transaction)', async () => {
  const path = `/api/appstore/manage/sources/${owner.source.source_id}`;
  expect(await costOf(() => bed.api.request('PATCH', path, { headers: owner.bearer, json: { name: 'Counted' } }))).toEqual({ calls: ['(none) BatchGetItem', '(none) TransactWriteItems'], trips: 2 });
  const draft = await makeDraft(owner.source.source_id, { name: 'Counted app', version: '1.0.0' });
  expect(await costOf(() => bed.api.request('POST', `${path}/apps/${draft.id}/publish`, { headers: owner.bearer }))).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem', 'tokens GetItem', '(none) TransactWriteItems'].sort(), trips: 3 });
});

test('update source on a tenant that sells plans: still 2 calls in 2 round trips (the check of the owner’s running subscription rides in the transaction instead of a read between the two)', async () => {
  const { tenantId, host } = await makeTenant();
  const plan = await admin('plan', 'create', '--tenant', tenantId, '--name', 'Small', '--price', '100', '--days', '30', '--sources', '2', '--apps-per-source', '3', '--published-per-source', '2');
  const seller = await makeOwner({ tenantId, balance: 1_000 });
  const headers = { ...seller.bearer, Host: host };
  expect((await bed.api.request('POST', '/api/appstore/manage/subscription', { headers, json: { plan: plan.json.plan_id } })).body.code).toBe(1);
  const path = `/api/appstore/manage/sources/${seller.source.source_id}`;
  // The tenant of this Host cached and the token checked, as on a warm container.
  expect((await bed.api.request('PATCH', path, { headers, json: { name: 'Warm' } })).body.code).toBe(1);
  expect(await costOf(() => bed.api.request('PATCH', path, { headers, json: { name: 'Counted' } }))).toEqual({ calls: ['(none) BatchGetItem', '(none) TransactWriteItems'], trips: 2 });
});

test('an instant add of a new UDID: 10 calls in at most 6 round trips, one of each kind the README lists', async () => {
  const { token } = await newUser();
  const { calls, trips } = await costOf(() => add(bed.api, { token, udid: udid25() }));
  // At most: a read sent beside a write held for the count may still be in flight when the write leaves.
  expect(trips).toBeLessThanOrEqual(6);
  expect(calls).toEqual(
    [
      'tokens GetItem', // 1. who is asking
      'rate-limits UpdateItem', // 2. the per-minute counter, beside
      'devices Query', //    the user's certificates of the UDID
      'add-locks UpdateItem', // 3. the add lock, handing back the last add's marker, beside
      '(none) BatchGetItem', //    the user's balance and the prices
      '(none) TransactWriteItems', // 4. the payment held: the debit and the hold record, before Apple is called, beside
      'accounts Query', //    the pool's accounts
      '(none) TransactWriteItems', // 5. the slot reserved before Apple and noted on the hold, beside
      'counters UpdateItem', //    the device id
      '(none) TransactWriteItems', // 6. device, slot, marker, the hold completed, the lock released
    ].sort(),
  );
});

test('a repeated add that finds a usable certificate: the token, then the counter and the certificates at once — 3 calls in 2 round trips, no lock', async () => {
  const { token } = await newUser();
  const udid = udid25();
  await add(bed.api, { token, udid });
  expect(await costOf(() => add(bed.api, { token, udid }))).toEqual({ calls: ['devices Query', 'rate-limits UpdateItem', 'tokens GetItem'], trips: 2 });
});

test('an invalid token costs the token read and the per-IP counter only: 2 calls in 2 round trips, with or without a device read beside it', async () => {
  expect(await costOf(() => bed.api.request('GET', `/api/device/info?token=nope&kid=${kid}`), 10)).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips: 2 });
  expect(await costOf(() => bed.api.request('GET', `/api/device/list?token=nope`), 10)).toEqual({ calls: ['rate-limits UpdateItem', 'tokens GetItem'], trips: 2 });
});

/** A public request's calls and its sequential round trips (calls in flight together count once). */
async function publicCost(path: string, status = 200): Promise<{ calls: string[]; trips: number }> {
  const taken = await sample(async () => {
    const res = await bed.api.request('GET', path);
    expect(res.status).toBe(status);
  });
  const prefix = process.env.TABLE_PREFIX ?? '';
  return { calls: taken.calls.map((c) => `${c.table.startsWith(prefix) ? c.table.slice(prefix.length) : c.table} ${c.command}`).sort(), trips: roundTrips(taken.calls) };
}

describe('the feed and the gate at their floors (issue 28)', () => {
  let feed: string;
  let deviceUrl: string;
  let udid: string;
  beforeAll(async () => {
    const draft = await makeDraft(owner.source.source_id, { name: 'Floor app', version: '9.0.0', lock: 1 });
    await bed.api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${draft.id}/publish`, { headers: owner.bearer });
    feed = `/api/rjy/${owner.source.source_id}/appstore`;
    udid = newUdid();
    const res = await bed.api.request('GET', `/api/appstore/manage/sources/${owner.source.source_id}/device-url?udid=${udid}`, { headers: owner.bearer });
    deviceUrl = new URL(res.body.data!.url as string).search;
    await bed.api.request('GET', feed);
  });

  test('without a UDID: the per-IP counter beside one batch read (source and its published apps) — 2 calls, 1 round trip', async () => {
    expect(await publicCost(feed)).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips: 1 });
  });

  test('with a device key, cold (a key this instance has not read): 3 calls in 2 round trips (counter and source read at once, then the device’s standing); warm: the standing read ahead in the same batch — 2 calls in 1 round trip', async () => {
    const cold = await publicCost(`${feed}${deviceUrl}`);
    expect(cold.calls).toEqual(['(none) BatchGetItem', '(none) BatchGetItem', 'rate-limits UpdateItem']);
    // At most 2: the per-IP counter may still be in flight when the second read starts (1 seen, then).
    expect(cold.trips).toBeLessThanOrEqual(2);
    expect(await publicCost(`${feed}${deviceUrl}`)).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips: 1 });
  });

  test('with a claimed UDID: on a source this instance has not read, 3 calls in 2 round trips; once it has (its owner known), 2 calls in 1', async () => {
    const other = await makeOwner();
    const draft = await makeDraft(other.source.source_id, { name: 'Cold app', version: '1.0.0' });
    await bed.api.request('POST', `/api/appstore/manage/sources/${other.source.source_id}/apps/${draft.id}/publish`, { headers: other.bearer });
    const cold = await publicCost(`/api/rjy/${other.source.source_id}/appstore?udid=${newUdid()}`);
    // (Plus, on a source new to the instance, its owner's read, cached per container: subscription and storefront.)
    expect(cold.calls).toEqual(['(none) BatchGetItem', '(none) BatchGetItem', 'rate-limits UpdateItem', 'users GetItem']);
    expect(cold.trips).toBeLessThanOrEqual(2);
    expect(await publicCost(`/api/rjy/${other.source.source_id}/appstore?udid=${newUdid()}`)).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips: 1 });
    expect(await publicCost(`${feed}?udid=${udid}`)).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips: 1 });
  });

  test('the download gate: a link this instance has not opened, 3 calls in 2 round trips; the next time, its device’s standing read ahead — 2 calls in 1', async () => {
    const doc = (await bed.api.request('GET', `${feed}${deviceUrl}`)).body as { apps: { downloadURL: string }[] };
    const link = new URL(doc.apps.find((a) => a.downloadURL.includes('/download'))!.downloadURL);
    const cold = await publicCost(`${link.pathname}${link.search}`, 403);
    expect(cold.calls).toEqual(['(none) BatchGetItem', '(none) BatchGetItem', 'rate-limits UpdateItem']);
    expect(cold.trips).toBeLessThanOrEqual(2);
    expect(await publicCost(`${link.pathname}${link.search}`, 403)).toEqual({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips: 1 });
  });
});
