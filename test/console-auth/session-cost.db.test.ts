/**
 * A request made with a console session costs what the same request with a token costs: the session is read
 * where the token would be (in the same BatchGetItem as the route's own reads on device info and status), and
 * its idle end is moved forward by one more write at most every 5 minutes.
 */
import { instrumentDynamoDb, roundTrips, sample } from '../bench/harness';
import { startTestbed, type Testbed } from '../support/add-device-testbed';
import { makeOwner, newUdid, type Owner } from '../support/fixtures';
import { admin } from '../support/admin-cli';
import { importDevice } from '../../shared/domain/devices/device-import';
import { clearTenantCache } from '../../shared/domain/tenants/host-tenant';
import { setClock } from '../../shared/clock';
import { createEveryTable } from '../support/tables';

let bed: Testbed;
let owner: Owner;
let kid: string;
let session: { Cookie: string; 'X-CSRF-Token': string };
let previousCache: string | undefined;

beforeAll(async () => {
  previousCache = process.env.TENANT_CACHE_SECONDS;
  process.env.TENANT_CACHE_SECONDS = '30';
  clearTenantCache();
  bed = await startTestbed();
  await createEveryTable(); // its round trips are counted
  owner = await makeOwner({ balance: 100_000 });
  kid = (await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000)).kid;
  session = await signIn(owner);
  instrumentDynamoDb();
  await bed.api.request('GET', `/api/device/info?kid=${kid}`, { headers: session });
});
afterAll(async () => {
  await bed.close();
  if (previousCache === undefined) delete process.env.TENANT_CACHE_SECONDS;
  else process.env.TENANT_CACHE_SECONDS = previousCache;
});

/** Signs `user` in as a person: the session cookie and its CSRF token. */
async function signIn(user: Owner): Promise<{ Cookie: string; 'X-CSRF-Token': string }> {
  const login = `cost-${user.user.userId}`;
  await admin('user', 'set-password', '--user', user.user.userId, '--password', 'cost of a session', '--login', login);
  const signedIn = await bed.api.request('POST', '/api/user/session', { json: { action: 'sign_in', login, password: 'cost of a session' } });
  const cookie = /console_session=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')![1]!;
  return { Cookie: `console_session=${cookie}`, 'X-CSRF-Token': (signedIn.body.data as { csrf_token: string }).csrf_token };
}

async function costOf(request: () => Promise<{ body: { code?: number } }>): Promise<{ calls: string[]; trips: number }> {
  const taken = await sample(async () => expect((await request()).body.code).toBe(1));
  const prefix = process.env.TABLE_PREFIX ?? '';
  return { calls: taken.calls.map((c) => `${c.table.startsWith(prefix) ? c.table.slice(prefix.length) : c.table} ${c.command}`).sort(), trips: roundTrips(taken.calls) };
}

test('device info with a session costs what it costs with a token: cold (a credential this instance has not checked) the session and the device in one batch read, then the count — 2 calls in 2 round trips; warm, the count beside the batch — 2 calls in 1', async () => {
  const expected = (trips: number) => ({ calls: ['(none) BatchGetItem', 'rate-limits UpdateItem'], trips });
  // A session and a token this instance has not seen yet (a fresh owner), then the same again.
  const fresh = await makeOwner();
  const freshKid = (await importDevice({ userId: fresh.user.userId, udid: newUdid() }, 1_700_000_000)).kid;
  const freshSession = await signIn(fresh);
  const coldToken = await costOf(() => bed.api.request('GET', `/api/device/info?token=${fresh.token}&kid=${freshKid}`));
  const coldSession = await costOf(() => bed.api.request('GET', `/api/device/info?kid=${freshKid}`, { headers: freshSession }));
  expect(coldSession).toEqual(expected(2));
  expect(coldSession).toEqual(coldToken);
  const warmToken = await costOf(() => bed.api.request('GET', `/api/device/info?token=${fresh.token}&kid=${freshKid}`));
  const warmSession = await costOf(() => bed.api.request('GET', `/api/device/info?kid=${freshKid}`, { headers: freshSession }));
  expect(warmSession).toEqual(expected(1));
  expect(warmSession).toEqual(warmToken);
});

test('update source with a session: 2 calls in 2 round trips (the session and the source in one batch read, then the transaction carrying the count), as with a token', async () => {
  const path = `/api/appstore/manage/sources/${owner.source.source_id}`;
  const withToken = await costOf(() => bed.api.request('PATCH', path, { headers: owner.bearer, json: { name: 'By token' } }));
  const withSession = await costOf(() => bed.api.request('PATCH', path, { headers: session, json: { name: 'By session' } }));
  expect(withSession).toEqual({ calls: ['(none) BatchGetItem', '(none) TransactWriteItems'], trips: 2 });
  expect(withSession).toEqual(withToken);
});

test('a session unused for 5 minutes or more pays one write to move its idle end; the next request none', async () => {
  const start = Date.now();
  const restore = setClock(() => start + 6 * 60_000);
  try {
    const list = () => bed.api.request('GET', '/api/appstore/manage/sources', { headers: session });
    // The session's own calls (the jump in time also ends the tenant cache, whose reads are not the session's).
    const sessionCalls = async () => (await costOf(list)).calls.filter((c) => c.startsWith('console-auth'));
    expect(await sessionCalls()).toEqual(['console-auth GetItem', 'console-auth UpdateItem']);
    expect(await sessionCalls()).toEqual(['console-auth GetItem']);
  } finally {
    restore();
  }
});

test("a sign-in is 9 calls in 4 round trips: the route's per-IP count, the login and the IP's failure count, then the account's and the credential, then the refunds, the session and the user", async () => {
  const login = `cost-${owner.user.userId}`;
  const cost = await costOf(() => bed.api.request('POST', '/api/user/session', { json: { action: 'sign_in', login, password: 'cost of a session' } }));
  expect(cost).toEqual({
    calls: ['console-auth GetItem', 'console-auth GetItem', 'console-auth PutItem', 'rate-limits UpdateItem', 'rate-limits UpdateItem', 'rate-limits UpdateItem', 'rate-limits UpdateItem', 'rate-limits UpdateItem', 'users GetItem'],
    trips: 4,
  });
});
