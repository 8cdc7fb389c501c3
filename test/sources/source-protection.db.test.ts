import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startTestApi, type ApiResponse, type TestApi } from '../support/api';
import { makeDraft, makeOwner as makeFixtureOwner, makeTenant, newUdid, type Owner } from '../support/fixtures';
import { downloadUrls, feedProblems, NO_PROBLEMS } from '../support/feed-validators';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { ipBucketKey } from '../../shared/http/middlewares/rate-limit';
import { setClock } from '../../shared/clock';
import { languages } from '../../shared/i18n/languages';
import { translate } from '../../shared/i18n/catalog';
import { routeFor } from '../../shared/routes';
import type { AppMetadata } from '../../shared/records/app';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

interface FeedApp {
  name: string;
  bundleIdentifier: string;
  developerName: string;
  iconURL: string;
  downloadURL: string;
  lock: string;
  versions: { version: string; downloadURL: string; size: number }[];
}
interface Feed {
  name: string;
  message?: string;
  sourceURL: string;
  unlockURL?: string;
  payURL?: string;
  apps: FeedApp[];
}

const DAY = 86_400;

/** Every owner of this file by source, so a read "as a device" can fetch that device's own feed URL. */
const ownersBySource = new Map<string, Owner>();
async function makeOwner(options: Parameters<typeof makeFixtureOwner>[0] = {}): Promise<Owner> {
  const owner = await makeFixtureOwner(options);
  ownersBySource.set(owner.source.source_id, owner);
  return owner;
}

/**
 * The path and query of a device's own feed URL (`…/appstore?dk=…`), from the owner's device-url endpoint:
 * how a device reads the feed as itself (issue 33: a bare `?udid=` is only a claim).
 */
async function devicePath(sourceId: string, udid: string): Promise<string> {
  const owner = ownersBySource.get(sourceId)!;
  const res = await api.request('GET', `/api/appstore/manage/sources/${sourceId}/device-url?udid=${udid}`, { headers: owner.bearer });
  const url = new URL(res.body.data!.url as string);
  return `${url.pathname}${url.search}`;
}
const feedPath = (sourceId: string) => `/api/rjy/${sourceId}/appstore`;
const manage = (sourceId: string, rest: string) => `/api/appstore/manage/sources/${sourceId}/${rest}`;

async function publish(owner: Owner, draft: Partial<AppMetadata> & { downloadUrl?: string } = {}) {
  const app = await makeDraft(owner.source.source_id, draft);
  const res = await api.request('POST', manage(owner.source.source_id, `apps/${app.id}/publish`), { headers: owner.bearer });
  expect(res.body.code).toBe(1);
  return app;
}

async function settings(owner: Owner, json: Record<string, unknown>) {
  const res = await api.request('PATCH', `/api/appstore/manage/sources/${owner.source.source_id}`, { headers: owner.bearer, json });
  expect(res.body.code).toBe(1);
}

async function createCodes(owner: Owner, count: number, days: number): Promise<string[]> {
  const res = await api.request('POST', manage(owner.source.source_id, 'unlock-codes'), { headers: owner.bearer, json: { count, days } });
  expect(res.body.code).toBe(1);
  return (res.body.data!.codes as { code: string }[]).map((c) => c.code);
}

const unlock = (sourceId: string, udid: string, code: string, headers: Record<string, string> = {}) =>
  api.request('GET', `${feedPath(sourceId)}?${new URLSearchParams({ udid, code }).toString()}`, { headers });

const b64 = (text: string) => Buffer.from(text).toString('base64');
/** A report sent by `reporter` itself (from its own feed URL), or anonymously when no reporter is given. */
const report = async (sourceId: string, value: unknown, headers: Record<string, string> = {}, reporter?: string) =>
  api.request('POST', reporter ? await devicePath(sourceId, reporter) : feedPath(sourceId), { headers, json: { value } });

/** The feed as the device `udid` reads it from its own URL (proven), or without a device. */
async function readFeed(sourceId: string, udid?: string, headers: Record<string, string> = {}): Promise<Feed> {
  const res = await api.request('GET', udid ? await devicePath(sourceId, udid) : feedPath(sourceId), { headers });
  expect(res.status).toBe(200);
  return res.body as unknown as Feed;
}

async function download(link: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const url = new URL(link);
  return api.request('GET', `${url.pathname}${url.search}`, { headers });
}

/** Runs `body` with the clock at `atMs` (and moving with real time), so hourly windows cannot roll over mid-test. */
async function at<T>(atMs: number, body: (advance: (ms: number) => void) => Promise<T>): Promise<T> {
  let offset = atMs - Date.now();
  const restore = setClock(() => Date.now() + offset);
  try {
    return await body((ms) => void (offset += ms));
  } finally {
    restore();
  }
}

describe('unlock codes: the owner endpoints', () => {
  test('create count 1–100 codes of days 1–3650 and list them, used or not', async () => {
    const owner = await makeOwner();
    const res = await api.request('POST', manage(owner.source.source_id, 'unlock-codes'), { headers: owner.bearer, form: { count: '3', days: '30' } });
    expect(res.status).toBe(200);
    const codes = res.body.data!.codes as { code: string; days: number }[];
    expect(codes).toHaveLength(3);
    for (const c of codes) expect(c).toEqual({ code: expect.stringMatching(/^[A-Z2-9]{12}$/), days: 30 });
    expect(new Set(codes.map((c) => c.code)).size).toBe(3);
    expect((await createCodes(owner, 100, 3650)).length).toBe(100);

    const list = await api.request('GET', manage(owner.source.source_id, 'unlock-codes'), { headers: owner.bearer });
    const listed = list.body.data!.codes as Record<string, unknown>[];
    expect(listed).toHaveLength(103);
    expect(listed.find((c) => c.code === codes[0]!.code)).toEqual({ code: codes[0]!.code, days: 30, state: 'unused', udid: null, used_at: null, ends_at: null });
  });

  test('bad count or days, unknown fields: 40002 naming them; nothing is created', async () => {
    const owner = await makeOwner();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ count: 0, days: 1 }, ['count']],
      [{ count: 101, days: 1 }, ['count']],
      [{ count: '1x', days: 1 }, ['count']],
      [{ count: 1.5, days: 1 }, ['count']],
      [{ count: 1, days: 0 }, ['days']],
      [{ count: 1, days: 3651 }, ['days']],
      [{ count: 1 }, ['days']],
      [{}, ['count', 'days']],
    ];
    for (const [json, fields] of cases) {
      const res = await api.request('POST', manage(owner.source.source_id, 'unlock-codes'), { headers: { ...owner.bearer, 'X-Lang': 'en' }, json });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields } });
    }
    const unknown = await api.request('POST', manage(owner.source.source_id, 'unlock-codes'), { headers: owner.bearer, json: { count: 1, days: 1, price: 5 } });
    expect(unknown.body).toMatchObject({ code: 40002, data: { error: 'unknown_field', fields: ['price'] } });
    const list = await api.request('GET', manage(owner.source.source_id, 'unlock-codes'), { headers: owner.bearer });
    expect(list.body.data).toEqual({ codes: [] });
  });

  test("bearer only; another owner's source or no source at all is 40001; the owner's token on another tenant's host is an unknown token (10)", async () => {
    const owner = await makeOwner();
    const other = await makeOwner();
    const tenant = await makeTenant();
    const calls: [string, string][] = [
      ['POST', 'unlock-codes'],
      ['GET', 'unlock-codes'],
      ['GET', 'blocklist'],
      ['PUT', `blocklist/${newUdid()}`],
      ['DELETE', `blocklist/${newUdid()}`],
    ];
    for (const [method, rest] of calls) {
      const json = method === 'POST' ? { count: 1, days: 1 } : undefined;
      const foreign = await api.request(method, manage(owner.source.source_id, rest), { headers: other.bearer, json });
      expect([method, rest, foreign.status, foreign.body.code]).toEqual([method, rest, 404, 40001]);
      const elsewhere = await api.request(method, manage(owner.source.source_id, rest), { headers: { ...owner.bearer, Host: tenant.host }, json });
      expect([elsewhere.status, elsewhere.body.code]).toEqual([401, 10]);
      const missing = await api.request(method, manage('snope', rest), { headers: owner.bearer, json });
      expect(missing.body.code).toBe(40001);
      const anonymous = await api.request(method, manage(owner.source.source_id, rest), { json });
      expect([anonymous.status, anonymous.body.code]).toEqual([401, 10]);
    }
  });

  test('answers in all seven languages', async () => {
    const owner = await makeOwner();
    for (const lang of languages) {
      const res = await api.request('POST', manage(owner.source.source_id, 'unlock-codes'), { headers: { ...owner.bearer, 'X-Lang': lang }, json: { count: 0, days: 1 } });
      expect(res.body.msg).toBe(translate(lang, 'invalid_value', { fields: 'count' }));
    }
  });
});

describe('locked apps and unlocking', () => {
  test('a locked app is locked for a UDID until it unlocks; then its links work, for that UDID only', async () => {
    const owner = await makeOwner();
    await settings(owner, { pay_url: 'https://pay.example.com/buy' });
    await publish(owner, { name: 'Open', downloadUrl: 'https://dl.example.com/open.ipa' });
    await publish(owner, { name: 'Premium', version: '1.0', downloadUrl: 'https://dl.example.com/premium-1.ipa', lock: 1 });
    await publish(owner, { name: 'Premium', version: '2.0', downloadUrl: 'https://dl.example.com/premium-2.ipa', lock: 1 });
    const [code] = await createCodes(owner, 3, 30);
    const udid = newUdid();

    const before = await readFeed(owner.source.source_id, udid);
    expect(feedProblems(before)).toEqual(NO_PROBLEMS);
    expect(before).toMatchObject({ unlockURL: before.sourceURL, payURL: 'https://pay.example.com/buy' });
    const premium = before.apps.find((a) => a.name === 'Premium')!;
    expect(premium.lock).toBe('1');
    for (const link of [premium.downloadURL, ...premium.versions.map((v) => v.downloadURL)]) {
      expect(link).not.toBe('');
      const res = await download(link, { 'X-Lang': 'en' });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 403, data: { error: 'locked' }, msg: 'This app is locked; unlock the source first' });
    }
    expect(before.apps.find((a) => a.name === 'Open')!.lock).toBe('0');

    const now = Math.floor(Date.now() / 1000);
    const unlocked = await unlock(owner.source.source_id, udid.toLowerCase(), code!.toLowerCase(), { 'X-Lang': 'en' });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body).toMatchObject({ code: 1, data: { udid: udid.toUpperCase(), code, days: 30 } });
    const endsAt = unlocked.body.data!.ends_at as number;
    expect(endsAt - now - 30 * DAY).toBeGreaterThanOrEqual(0);
    expect(endsAt - now - 30 * DAY).toBeLessThan(5);
    expect(unlocked.body.msg).toBe(`Unlocked until ${new Date(endsAt * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(unlocked.headers.get('cache-control')).toBe('no-store');

    const after = await readFeed(owner.source.source_id, udid);
    expect(feedProblems(after)).toEqual(NO_PROBLEMS);
    expect(after.unlockURL).toBe(after.sourceURL);
    const open = after.apps.find((a) => a.name === 'Premium')!;
    expect(open.lock).toBe('0');
    expect((await download(open.versions[0]!.downloadURL)).headers.get('location')).toBe('https://dl.example.com/premium-2.ipa');
    expect((await download(open.versions[1]!.downloadURL)).headers.get('location')).toBe('https://dl.example.com/premium-1.ipa');

    // the same UDID presenting its code again: the same answer; another UDID: refused; the owner sees who used it
    const again = await api.request('POST', feedPath(owner.source.source_id), { json: { udid, code } });
    expect(again.body).toMatchObject({ code: 1, data: { ends_at: endsAt } });
    const second = newUdid();
    const stolen = await unlock(owner.source.source_id, second, code!, { 'X-Lang': 'en' });
    expect([stolen.status, stolen.body.code, stolen.body.data?.error, stolen.body.msg]).toEqual([200, 0, 'unlock_code_used', 'This unlock code has already been used by another device']);
    expect((await readFeed(owner.source.source_id, second)).apps.find((a) => a.name === 'Premium')!.lock).toBe('1');
    const list = await api.request('GET', manage(owner.source.source_id, 'unlock-codes'), { headers: owner.bearer });
    expect((list.body.data!.codes as Record<string, unknown>[]).find((c) => c.code === code)).toEqual({
      code,
      days: 30,
      state: 'used',
      udid: udid.toUpperCase(),
      used_at: expect.any(Number),
      ends_at: endsAt,
    });
  });

  test('the unlock lasts the code’s days: afterwards the app is locked again, feed and gate alike', async () => {
    const owner = await makeOwner();
    await publish(owner, { name: 'Premium', lock: 1 });
    const [code] = await createCodes(owner, 1, 2);
    const udid = newUdid();
    expect((await unlock(owner.source.source_id, udid, code!)).body.code).toBe(1);
    const link = (await readFeed(owner.source.source_id, udid)).apps[0]!.downloadURL;
    expect((await download(link)).status).toBe(302);
    await at(Date.now() + 2 * DAY * 1000 + 60_000, async () => {
      expect((await download(link)).body).toMatchObject({ data: { error: 'link_expired' } });
      const feed = await readFeed(owner.source.source_id, udid);
      expect(feed.apps[0]!.lock).toBe('1');
      expect((await download(feed.apps[0]!.downloadURL)).body).toMatchObject({ data: { error: 'locked' } });
    });
  });

  test('a second code extends nothing backwards: the later end stands', async () => {
    const owner = await makeOwner();
    const [long, short] = [...(await createCodes(owner, 1, 30)), ...(await createCodes(owner, 1, 1))];
    const udid = newUdid();
    const first = await unlock(owner.source.source_id, udid, long!);
    const second = await unlock(owner.source.source_id, udid, short!);
    expect(second.body.code).toBe(1);
    await publish(owner, { name: 'Premium', lock: 1 });
    await at(Date.now() + 2 * DAY * 1000, async () => {
      expect((await readFeed(owner.source.source_id, udid)).apps[0]!.lock).toBe('0');
    });
    expect(first.body.data!.ends_at).toBeGreaterThan(second.body.data!.ends_at as number);
  });

  test('unknown codes, bad UDIDs: code 0 with data.error, HTTP 200, localized', async () => {
    const owner = await makeOwner();
    const [code] = await createCodes(owner, 1, 1);
    const cases: [Record<string, string>, string][] = [
      [{ udid: newUdid(), code: 'NOSUCHCODE22' }, 'unlock_code_unknown'],
      [{ udid: newUdid(), code: '' }, 'unlock_code_unknown'],
      [{ udid: newUdid(), code: '../../etc' }, 'unlock_code_unknown'],
      [{ udid: 'not-a-udid', code: code! }, 'udid_invalid'],
      [{ code: code! }, 'udid_invalid'],
    ];
    for (const [i, [query, error]] of cases.entries()) {
      const lang = languages[i % languages.length]!;
      const res = await api.request('GET', `${feedPath(owner.source.source_id)}?${new URLSearchParams(query).toString()}`, { headers: { 'X-Lang': lang } });
      expect([res.status, res.body.code, res.body.data?.error]).toEqual([200, 0, error]);
      expect(res.body.msg).toBe(translate(lang, error as 'udid_invalid'));
    }
    // the code is still unused after all that
    expect((await unlock(owner.source.source_id, newUdid(), code!)).body.code).toBe(1);
    // hostile input in an unlock is refused in the unlock's own envelope: code 0
    const hostile = await api.request('GET', `${feedPath(owner.source.source_id)}?udid=${newUdid()}&code=AB%01CD`);
    expect([hostile.status, hostile.body.code, hostile.body.data?.error]).toEqual([400, 0, 'invalid_value']);
    const hostileBody = await api.request('POST', feedPath(owner.source.source_id), { json: { udid: newUdid(), code: { __proto__x: 1, a: [[[[]]]] }, pad: 'x'.repeat(70_000) } });
    expect([hostileBody.status, hostileBody.body.code]).toEqual([413, 40002]);
    // an unknown source is the feed's 404
    expect((await unlock('snope', newUdid(), code!)).status).toBe(404);
  });

  test('N devices racing for one code: exactly one wins', async () => {
    const owner = await makeOwner();
    const [code] = await createCodes(owner, 1, 7);
    const udids = Array.from({ length: 8 }, newUdid);
    const answers = await Promise.all(udids.map((udid) => unlock(owner.source.source_id, udid, code!)));
    const winners = answers.filter((a) => a.body.code === 1);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.body.data?.error === 'unlock_code_used')).toHaveLength(7);
    const list = await api.request('GET', manage(owner.source.source_id, 'unlock-codes'), { headers: owner.bearer });
    expect((list.body.data!.codes as { udid: string }[])[0]!.udid).toBe(winners[0]!.body.data!.udid);
  });

  test('10 failed unlocks per IP per source in 10 minutes, then 429 code 0 for every unlock (a right code included) until those 10 minutes end', async () => {
    const owner = await makeOwner();
    const other = await makeOwner();
    const [good, spare] = await createCodes(owner, 2, 1);
    const [elsewhere] = await createCodes(other, 1, 1);
    const udid = newUdid();
    const window = Date.UTC(2031, 5, 1, 10, 0, 0);
    await at(window + 60_000, async (advance) => {
      for (let i = 0; i < 9; i++) expect((await unlock(owner.source.source_id, udid, `WRONGCODE${i}`)).body.data?.error).toBe('unlock_code_unknown');
      // a success does not use the failure budget
      const ok = await unlock(owner.source.source_id, udid, good!);
      expect(ok.body.code).toBe(1);
      expect(ok.headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await unlock(owner.source.source_id, newUdid(), good!)).body.data?.error).toBe('unlock_code_used');
      const limited = await unlock(owner.source.source_id, udid, spare!, { 'X-Lang': 'en' });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 0, data: { error: 'rate_limited', limit: 10 } });
      expect(limited.body.msg).toMatch(/^Too many failed attempts: the limit is 10 per 10 minutes, retry in \d+ seconds$/);
      // the lock-out lasts what is left of the 10 minutes, never an hour
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(8 * 60);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(9 * 60);
      // reads and other sources are not affected
      expect((await api.request('GET', feedPath(owner.source.source_id))).status).toBe(200);
      expect((await unlock(other.source.source_id, udid, elsewhere!)).body.code).toBe(1);
      advance(9 * 60_000);
      expect((await unlock(owner.source.source_id, udid, spare!)).body.code).toBe(1);
    });
  });

  test('carrier NAT: a neighbour’s 10 typos lock the shared address out of that source for minutes, not the hour; the paying customer then unlocks', async () => {
    const owner = await makeOwner();
    const [customerCode] = await createCodes(owner, 1, 30);
    const neighbour = newUdid();
    const customer = newUdid();
    const window = Date.UTC(2031, 5, 1, 11, 0, 0);
    await at(window + 7 * 60_000, async (advance) => {
      // same address (the test client's): the neighbour mistypes a code of their own 10 times
      for (let i = 0; i < 10; i++) expect((await unlock(owner.source.source_id, neighbour, `TYPO${i}CODE`)).body.data?.error).toBe('unlock_code_unknown');
      const blocked = await unlock(owner.source.source_id, customer, customerCode!, { 'X-Lang': 'ru' });
      expect(blocked.status).toBe(429);
      expect(blocked.body.msg).toMatch(/за 10 минут/);
      expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(3 * 60);
      advance(3 * 60_000);
      expect((await unlock(owner.source.source_id, customer, customerCode!)).body.code).toBe(1);
    });
  });

  test('refused unlocks do not count as failures: the window\'s counter holds only the attempts that ran and failed', async () => {
    const owner = await makeOwner();
    const limit = routeFor('source-feed').ipLimits!.find((l) => l.operation === 'unlock' && l.counts === 'failures')!;
    const hour = Date.UTC(2031, 5, 1, 14, 0, 0);
    await at(hour + 60_000, async () => {
      const udid = newUdid();
      for (let i = 0; i < 10; i++) expect((await unlock(owner.source.source_id, udid, `WRONGCODE${i}`)).body.data?.error).toBe('unlock_code_unknown');
      for (let i = 0; i < 3; i++) expect((await unlock(owner.source.source_id, udid, `WRONGCODE${i}`)).status).toBe(429);
      // Refusals giving their count back keeps the counter exact, so a success that raced a refusal and gave its
      // own count back leaves the budget where the failures put it, not one refusal further along.
      const key = ipBucketKey({ function: 'source-feed' }, limit, '127.0.0.1', { source_id: owner.source.source_id }, hour + 60_000);
      const counter = await documentClient().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { bucket: key }, ConsistentRead: true }));
      expect(counter.Item?.count).toBe(10);
    });
  });
});

describe('misuse reports', () => {
  // One case end to end (the report, the block list, the feed); every flag combination is a rule test on the
  // in-memory store (protection-rules.test.ts).
  const flagCases: [0 | 1, 0 | 1][] = [[1, 0]];
  test.each(flagCases)('open_black %i, open_black2 %i: flagged parts are blocked at once, the others monitored', async (openBlack, openBlack2) => {
    const owner = await makeOwner();
    await settings(owner, { open_black: openBlack, open_black2: openBlack2 });
    const [adder, cracker] = [newUdid(), newUdid()];
    // each device reports itself (the other part of its report is someone else's word, and ignored)
    const byAdder = await report(owner.source.source_id, b64(`${adder}|${newUdid()}`), {}, adder);
    const byCracker = await report(owner.source.source_id, b64(`${newUdid()}|${cracker}`), {}, cracker);
    expect([byAdder.status, byCracker.status]).toEqual([200, 200]);
    const expectBlocked = [...(openBlack ? [adder] : []), ...(openBlack2 ? [cracker] : [])].map((u) => u.toUpperCase());
    const expectMonitored = [...(openBlack ? [] : [adder]), ...(openBlack2 ? [] : [cracker])].map((u) => u.toUpperCase());
    const answer = (r: ApiResponse) => r.body.data as { blocked: string[]; monitored: string[] };
    expect([...answer(byAdder).blocked, ...answer(byCracker).blocked]).toEqual(expectBlocked);
    expect([...answer(byAdder).monitored, ...answer(byCracker).monitored]).toEqual(expectMonitored);

    const list = await api.request('GET', manage(owner.source.source_id, 'blocklist'), { headers: owner.bearer });
    const data = list.body.data as { blocked: { udid: string; reason: string; added_at: number }[]; monitored: { udid: string; role: string; count: number }[] };
    expect(data.blocked.map((b) => [b.udid, b.reason]).sort()).toEqual(
      [...(openBlack ? [[adder.toUpperCase(), 'adder']] : []), ...(openBlack2 ? [[cracker.toUpperCase(), 'cracker']] : [])].sort(),
    );
    expect(data.monitored.map((m) => [m.udid, m.role, m.count]).sort()).toEqual(
      [...(openBlack ? [] : [[adder.toUpperCase(), 'adder', 1]]), ...(openBlack2 ? [] : [[cracker.toUpperCase(), 'cracker', 1]])].sort(),
    );
    for (const udid of [adder, cracker]) {
      const feed = await readFeed(owner.source.source_id, udid);
      expect(feed.name === 'Fixture source').toBe(!expectBlocked.includes(udid.toUpperCase()));
    }
  });

  test('the monitor counts each report, with first and last seen; URL-safe base64 and one empty part work', async () => {
    const owner = await makeOwner();
    const cracker = newUdid();
    const t0 = Date.UTC(2031, 1, 1, 0, 0, 0);
    await at(t0, async (advance) => {
      expect((await report(owner.source.source_id, b64(`|${cracker}`), {}, cracker)).body.data).toEqual({ blocked: [], monitored: [cracker.toUpperCase()] });
      advance(90_000);
      const urlSafe = b64(`${'garbage'}|${cracker}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      expect((await report(owner.source.source_id, urlSafe, {}, cracker)).body.data).toEqual({ blocked: [], monitored: [cracker.toUpperCase()] });
    });
    const list = await api.request('GET', manage(owner.source.source_id, 'blocklist'), { headers: owner.bearer });
    expect(list.body.data).toEqual({
      blocked: [],
      monitored: [{ udid: cracker.toUpperCase(), role: 'cracker', count: 2, first_seen: t0 / 1000, last_seen: expect.any(Number) }],
      next: '',
    });
    const seen = (list.body.data as { monitored: { first_seen: number; last_seen: number }[] }).monitored[0]!;
    expect(seen.last_seen - seen.first_seen).toBeGreaterThanOrEqual(90);
  });

  test('malformed reports are 400/40002 and change nothing', async () => {
    const owner = await makeOwner();
    await settings(owner, { open_black: 1, open_black2: 1 });
    const bad: unknown[] = [undefined, '', 42, ['x'], { a: 1 }, 'not base64!!', b64('no separator'), b64('a|b|c'), b64('|'), b64('short|udids'), 'A'.repeat(600)];
    for (const value of bad) {
      const res = await api.request('POST', feedPath(owner.source.source_id), { headers: { 'X-Lang': 'en' }, json: value === undefined ? {} : { value } });
      expect([res.status, res.body.code, res.body.data?.error, res.body.data?.fields]).toEqual([400, 40002, 'invalid_value', ['value']]);
    }
    const notJson = await api.request('POST', feedPath(owner.source.source_id), { headers: { 'Content-Type': 'application/json' }, body: '{"value":' });
    expect([notJson.status, notJson.body.code]).toEqual([400, 40002]);
    const list = await api.request('GET', manage(owner.source.source_id, 'blocklist'), { headers: owner.bearer });
    expect(list.body.data).toEqual({ blocked: [], monitored: [], next: '' });
  });

  test('60 reports per minute per IP per source, then 429', async () => {
    const owner = await makeOwner();
    const limit = routeFor('source-feed').ipLimits!.find((l) => l.operation === 'report')!;
    expect(limit).toMatchObject({ limit: 60, window: 'minute' });
    const key = ipBucketKey({ function: 'source-feed' }, limit, '127.0.0.1', { source_id: owner.source.source_id }, Date.now());
    await documentClient().send(new PutCommand({ TableName: tableName('rateLimits'), Item: { bucket: key, count: 60, expires_at: 4_000_000_000 } }));
    const refused = await report(owner.source.source_id, b64(`${newUdid()}|`), { 'X-Lang': 'en' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 429, data: { error: 'rate_limited', limit: 60 } });
    // feed reads have their own budget
    expect((await api.request('GET', feedPath(owner.source.source_id))).status).toBe(200);
  });
});

describe('blocked devices', () => {
  test('a blocked UDID reads a valid, localized "blocked" document with only the placeholder app; the gate refuses it', async () => {
    const owner = await makeOwner();
    await settings(owner, { open_black: 1, message: 'Welcome', pay_url: 'https://pay.example.com' });
    await publish(owner, { name: 'Game', downloadUrl: 'https://dl.example.com/game.ipa' });
    await publish(owner, { name: 'Premium', lock: 1 });
    const udid = newUdid();
    const earlier = await readFeed(owner.source.source_id, udid);
    expect((await report(owner.source.source_id, b64(`${udid}|`), {}, udid)).body.data).toEqual({ blocked: [udid.toUpperCase()], monitored: [] });

    for (const lang of languages) {
      const feed = await readFeed(owner.source.source_id, udid, { 'X-Lang': lang });
      expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
      expect(feed.name).toBe(translate(lang, 'blocked_title'));
      expect(feed.message).toBe(translate(lang, 'blocked_notice'));
      expect(feed.apps).toHaveLength(1);
      expect(feed).not.toHaveProperty('payURL');
      expect(feed).not.toHaveProperty('unlockURL');
      expect(feed.apps[0]).toMatchObject({
        name: translate(lang, 'blocked_title'),
        bundleIdentifier: `blocked.${owner.source.source_id}`,
        developerName: 'Fixture source',
        iconURL: `${api.url}/api/rjy/${owner.source.source_id}/icon.png`,
        lock: '1',
        versions: [{ version: '0', size: 0 }],
      });
      expect(JSON.stringify(feed)).not.toContain('dl.example.com');
    }
    const blocked = await readFeed(owner.source.source_id, udid, { 'X-Lang': 'es' });
    for (const link of downloadUrls(blocked)) {
      expect(new URL(link).pathname).toBe(`/api/rjy/${owner.source.source_id}/apps/0/download`);
      const res = await download(link, { 'X-Lang': 'es' });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 403, data: { error: 'blocked' }, msg: translate('es', 'blocked') });
    }
    // links handed out before the block stop working too
    expect((await download(earlier.apps[0]!.downloadURL)).body).toMatchObject({ data: { error: 'blocked' } });
    // another UDID is untouched
    expect((await readFeed(owner.source.source_id, newUdid())).apps).toHaveLength(2);
    // the placeholder's icon is the source's own when it has one
    await settings(owner, { source_icon: 'https://cdn.example.com/s.png' });
    const withIcon = await readFeed(owner.source.source_id, udid);
    expect(feedProblems(withIcon)).toEqual(NO_PROBLEMS);
    expect(withIcon.apps[0]!.iconURL).toBe('https://cdn.example.com/s.png');
  });

  test('the built-in icon is a PNG served at /api/rjy/{source_id}/icon.png', async () => {
    const res = await api.request('GET', '/api/rjy/sanything/icon.png', { headers: { Accept: 'image/png' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from((res.body as { raw: string }).raw, 'latin1').subarray(1, 4).toString()).toBe('PNG');
  });

  test('owner endpoints: block by hand (leaves the monitor), list, unblock (the feed is back)', async () => {
    const owner = await makeOwner();
    await publish(owner, { name: 'Game' });
    const udid = newUdid();
    await report(owner.source.source_id, b64(`${udid}|`), {}, udid);
    const path = manage(owner.source.source_id, `blocklist/${udid.toLowerCase()}`);
    const blocked = await api.request('PUT', path, { headers: owner.bearer });
    expect(blocked.body).toMatchObject({ code: 1, data: { udid: udid.toUpperCase(), reason: 'manual', added_at: expect.any(Number) } });
    const again = await api.request('PUT', path, { headers: owner.bearer });
    expect(again.body.data).toEqual(blocked.body.data);
    const list = await api.request('GET', manage(owner.source.source_id, 'blocklist'), { headers: owner.bearer });
    expect(list.body.data).toEqual({ blocked: [blocked.body.data], monitored: [], next: '' });
    // a blocked UDID is not monitored any more, whatever is reported
    expect((await report(owner.source.source_id, b64(`${udid}|`), {}, udid)).body.data).toEqual({ blocked: [], monitored: [] });
    expect((await readFeed(owner.source.source_id, udid)).apps[0]!.bundleIdentifier).toBe(`blocked.${owner.source.source_id}`);

    const unblocked = await api.request('DELETE', path, { headers: owner.bearer });
    expect(unblocked.body).toMatchObject({ code: 1, data: { udid: udid.toUpperCase(), blocked: false, was_blocked: true } });
    expect((await api.request('DELETE', path, { headers: owner.bearer })).body.data).toMatchObject({ was_blocked: false });
    const feed = await readFeed(owner.source.source_id, udid);
    expect(feed.name).toBe('Fixture source');
    expect((await download(feed.apps[0]!.downloadURL)).status).toBe(302);

    for (const udidText of ['not-a-udid', 'x'.repeat(200), 'a%20b']) {
      const bad = await api.request('PUT', manage(owner.source.source_id, `blocklist/${udidText}`), { headers: { ...owner.bearer, 'X-Lang': 'en' } });
      expect([bad.status, bad.body.code, bad.body.data?.fields]).toEqual([400, 40002, ['udid']]);
    }
  });
});
