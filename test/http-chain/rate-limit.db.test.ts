import { existsSync } from 'node:fs';
import { jest } from '@jest/globals';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startTestApi, type ApiResponse, type TestApi } from '../support/api';
import { makeOwner, newUdid, type Owner } from '../support/fixtures';
import { importDevice } from '../../shared/domain/devices/device-import';
import { bucketKey } from '../../shared/http/middlewares/rate-limit';
import { minuteWindow } from '../../shared/limit-windows';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { getSource } from '../../shared/db/repositories/source-repository';
import { logger } from '../../shared/logger';
import { setClock } from '../../shared/clock';
import { routes, type RouteDefinition } from '../../shared/routes';
import { keepTenantsCached } from '../support/tenant-cache';

let api: TestApi;
let restoreClock: () => void = () => undefined;
// The limits are per owner, per IP and per route, never per tenant, and nothing here changes a tenant: the
// default tenant is read once, not before each of the file's requests.
keepTenantsCached();
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  restoreClock();
  await api.close();
});

/**
 * Every test runs in its own calendar minutes (all requests of the test file come from 127.0.0.1, so per-IP
 * buckets would otherwise carry over between tests).
 */
let nextSlot = 0;
function freshMinute(): { at: (offsetMs: number) => void; start: number } {
  const start = Date.UTC(2031, 0, 1, 0, 0) + ++nextSlot * 10 * 60_000;
  let now = start;
  restoreClock = setClock(() => now);
  return { start, at: (offsetMs) => void (now = start + offsetMs) };
}

function fillPath(route: RouteDefinition, owner: Owner): string {
  return route.path.replace('{source_id}', owner.source.source_id).replace('{app_id}', '999999').replace('{udid}', '00008101-000A1B2C3D4E5F60').replace('{news_id}', 'nmissing0000');
}

/** One request that passes authentication on `route` as `owner` (what the business code then says is irrelevant). */
function callAs(route: RouteDefinition, owner: Owner, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const method = route.methods[0]!;
  if (route.auth === 'bearer') return api.request(method, fillPath(route, owner), { headers: { ...owner.bearer, ...headers } });
  return api.request(method, `${fillPath(route, owner)}?token=${encodeURIComponent(owner.token)}`, { headers });
}

function callWithBadToken(route: RouteDefinition, owner: Owner, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const method = route.methods[0]!;
  if (route.auth === 'bearer') return api.request(method, fillPath(route, owner), { headers: { Authorization: 'Bearer not-a-real-token', ...headers } });
  return api.request(method, `${fillPath(route, owner)}?token=not-a-real-token`, { headers });
}

async function burst(count: number, call: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const out: ApiResponse[] = [];
  for (let i = 0; i < count; i++) out.push(await call());
  return out;
}

const patchName = (owner: Owner, name: string, headers: Record<string, string> = {}) =>
  api.request('PATCH', `/api/appstore/manage/sources/${owner.source.source_id}`, { headers: { ...owner.bearer, ...headers }, json: { name } });

const limited = routes.filter((r): r is (typeof routes)[number] & { rateLimit: number } => r.rateLimit !== null) as (RouteDefinition & { rateLimit: number })[];
// Routes whose function is still being built elsewhere are reported as skipped rather than silently left out.
const built = (route: RouteDefinition) => existsSync(new URL(`../../functions/${route.function}/handler.ts`, import.meta.url));

/**
 * Counts `n` requests of `owner` on `route` in this minute straight into the counter the route's chain reads,
 * so a route's limit+1-th request is reached without sending every request before it. Counting request by
 * request is what the update-source and device-info tests below do in full.
 */
async function countedAlready(route: RouteDefinition, owner: Owner, nowMs: number, n: number): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('rateLimits'),
      Key: { bucket: bucketKey(route, { user: owner.user.userId }, minuteWindow(nowMs)) },
      UpdateExpression: 'ADD #count :n',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':n': n },
    }),
  );
}

describe('the limit+1-th request of a minute is refused on every limited route', () => {
  for (const route of limited) {
    const run = built(route) ? test : test.skip;
    run(`${route.methods[0]} ${route.path}: ${route.rateLimit} per minute`, async () => {
      const clock = freshMinute();
      const owner = await makeOwner();
      // The first request of the minute starts the count at the route's limit; the last two allowed ones end it.
      const first = await callAs(route, owner);
      await countedAlready(route, owner, clock.start, route.rateLimit - 3);
      const allowed = [first, ...(await burst(2, () => callAs(route, owner)))];
      expect(allowed.map((r) => r.status).filter((s) => s === 429)).toEqual([]);
      expect(allowed.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual([String(route.rateLimit - 1), '1', '0']);

      const refused = await callAs(route, owner, { 'X-Lang': 'en' });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe(route.envelope === 'add' ? 0 : 429);
      expect(refused.body.data).toMatchObject({ error: 'rate_limited' });
      expect(refused.body.msg).toBe(`Too many requests: the limit is ${route.rateLimit} per minute, retry in 60 seconds`);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.headers.get('x-ratelimit-limit')).toBe(String(route.rateLimit));
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      if (route.envelope !== 'management') expect(refused.body).toMatchObject({ ip: '127.0.0.1', ysucc: 'Yerror' });
    });
  }
});

describe('update-source, as a new user hammering it sees it', () => {
  test('30 successes, then 429 with Retry-After in their language; the refused update changes nothing; the next minute works again', async () => {
    const clock = freshMinute();
    const owner = await makeOwner();
    clock.at(15_000);
    const ok = await burst(30, () => patchName(owner, 'kept'));
    expect(ok.map((r) => r.body.code)).toEqual(Array(30).fill(1));
    expect(ok[0]!.headers.get('x-ratelimit-limit')).toBe('30');
    expect(ok[0]!.headers.get('x-ratelimit-remaining')).toBe('29');
    expect(ok[29]!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(ok[0]!.headers.get('x-ratelimit-reset')).toBe(String(clock.start / 1000 + 60));
    expect(ok[0]!.headers.get('retry-after')).toBeNull();

    clock.at(59_000);
    const refused = await patchName(owner, 'lost', { 'X-Lang': 'es' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 429, data: { error: 'rate_limited', limit: 30, retry_after: 1 } });
    expect(refused.body.msg).toBe('Demasiadas solicitudes: el límite es 30 por minuto, vuelva a intentarlo en 1 segundos');
    expect(refused.headers.get('content-language')).toBe('es');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(clock.start / 1000 + 60));
    expect((await getSource(owner.source.source_id))?.name).toBe('kept');

    const inChinese = await patchName(owner, 'lost');
    expect(inChinese.body.msg).toBe('请求过于频繁：每分钟最多 30 次，请在 1 秒后重试');

    // The window is the calendar minute: the last millisecond still belongs to the old one.
    clock.at(59_999);
    expect((await patchName(owner, 'lost')).status).toBe(429);
    clock.at(60_000);
    const next = await patchName(owner, 'next minute');
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('29');
    expect(next.headers.get('x-ratelimit-reset')).toBe(String(clock.start / 1000 + 120));
    expect((await getSource(owner.source.source_id))?.name).toBe('next minute');
  });

  test('users are independent: one user at the limit does not slow another', async () => {
    freshMinute();
    const [busy, other] = await Promise.all([makeOwner(), makeOwner()]);
    await burst(30, () => patchName(busy, 'busy'));
    expect((await patchName(busy, 'busy')).status).toBe(429);
    const res = await patchName(other, 'other');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('29');
  });

  test('each route has its own counter: update-source at its limit does not touch publish', async () => {
    freshMinute();
    const owner = await makeOwner();
    await burst(31, () => patchName(owner, 'x'));
    const publish = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/999999/publish`, { headers: owner.bearer });
    expect(publish.body.code).toBe(40004);
    expect(publish.headers.get('x-ratelimit-remaining')).toBe('29');
  });

  test('concurrent requests cannot overshoot the limit', async () => {
    freshMinute();
    const owner = await makeOwner();
    const all = await Promise.all(Array.from({ length: 45 }, (_, i) => patchName(owner, `n${i}`)));
    expect(all.filter((r) => r.status === 200)).toHaveLength(30);
    expect(all.filter((r) => r.status === 429)).toHaveLength(15);
  });
});

describe('device info counts its limit while it reads the device (one round trip less), and answers as if it had counted first', () => {
  const info = (owner: Owner, kid: string, lang = 'en') => api.request('GET', `/api/device/info?token=${encodeURIComponent(owner.token)}&kid=${kid}`, { headers: { 'X-Lang': lang } });

  test('120 answers with the device and the remaining count, then 429 without the device, even for a kid that does not exist', async () => {
    freshMinute();
    const owner = await makeOwner();
    const device = await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000);
    const allowed = await burst(120, () => info(owner, device.kid));
    expect(allowed.every((r) => r.status === 200 && r.body.code === 1 && r.body.data?.kid === device.kid)).toBe(true);
    expect(allowed.at(-1)!.headers.get('x-ratelimit-remaining')).toBe('0');

    for (const kid of [device.kid, 'no-such-kid']) {
      const refused = await info(owner, kid, 'es');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 429, ysucc: 'Yerror', data: { error: 'rate_limited', limit: 120 } });
      expect(refused.body.msg).toMatch(/120/);
      expect(JSON.stringify(refused.body)).not.toContain(device.udid);
      expect(refused.headers.get('retry-after')).toBe('60');
    }
  });

  test('a request the business code refuses still counts, and carries the limit headers', async () => {
    freshMinute();
    const owner = await makeOwner();
    const res = await info(owner, 'no-such-kid');
    expect(res.body).toMatchObject({ code: 100, data: { error: 'device_not_found' } });
    expect(res.headers.get('x-ratelimit-remaining')).toBe('119');
    expect((await info(owner, 'no-such-kid')).headers.get('x-ratelimit-remaining')).toBe('118');
  });

  test('an unreachable limiter refuses the read (fail closed), whatever the read found', async () => {
    freshMinute();
    const owner = await makeOwner();
    const device = await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000);
    const saved = process.env.TABLE_RATE_LIMITS;
    process.env.TABLE_RATE_LIMITS = 'no-such-rate-limit-table';
    try {
      for (const kid of [device.kid, 'no-such-kid']) {
        const res = await info(owner, kid);
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ code: 500, data: { error: 'rate_limit_unavailable' } });
        expect(JSON.stringify(res.body)).not.toContain(device.udid);
      }
    } finally {
      if (saved === undefined) delete process.env.TABLE_RATE_LIMITS;
      else process.env.TABLE_RATE_LIMITS = saved;
    }
  });
});

describe('bad-token attempts are limited per source IP', () => {
  test('invalid bearer tokens: 30 answers of code 10, then 429; a valid user on the same IP is not slowed', async () => {
    freshMinute();
    const owner = await makeOwner();
    const update = limited.find((r) => r.function === 'update-source')!;
    const bad = await burst(30, () => callWithBadToken(update, owner, { 'X-Lang': 'en' }));
    expect(bad.map((r) => [r.status, r.body.code])).toEqual(Array(30).fill([401, 10]));
    expect(bad.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(Array.from({ length: 30 }, (_, i) => String(29 - i)));

    const refused = await callWithBadToken(update, owner, { 'X-Lang': 'en' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 429, data: { error: 'rate_limited' } });
    expect(refused.headers.get('retry-after')).toBe('60');
    // A missing header is a bad attempt too.
    const missing = await api.request('PATCH', `/api/appstore/manage/sources/${owner.source.source_id}`, { json: { name: 'x' } });
    expect(missing.status).toBe(429);

    const valid = await patchName(owner, 'still works');
    expect(valid.status).toBe(200);
    expect(valid.headers.get('x-ratelimit-remaining')).toBe('29');
  });

  test('the bad-attempt counter resets with the minute', async () => {
    const clock = freshMinute();
    const owner = await makeOwner();
    const update = limited.find((r) => r.function === 'update-source')!;
    await burst(30, () => callWithBadToken(update, owner));
    expect((await callWithBadToken(update, owner)).status).toBe(429);
    clock.at(60_000);
    const next = await callWithBadToken(update, owner);
    expect([next.status, next.body.code]).toEqual([401, 10]);
  });

  const tokenRoutes = limited.filter((r) => r.auth === 'token');
  for (const route of tokenRoutes) {
    const run = built(route) ? test : test.skip;
    run(`${route.path}: a missing token parameter counts against the IP`, async () => {
      freshMinute();
      const owner = await makeOwner();
      await burst(route.rateLimit, () => api.request(route.methods[0]!, fillPath(route, owner)));
      const refused = await api.request(route.methods[0]!, fillPath(route, owner));
      expect(refused.status).toBe(429);
      expect(refused.body.data).toMatchObject({ error: 'rate_limited' });
      expect((await callAs(route, owner)).status).not.toBe(429);
    });
  }
});

describe('public routes', () => {
  test('the public feed is limited per IP and per source, with the same headers', async () => {
    freshMinute();
    const owner = await makeOwner();
    const res = await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('600');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('599');
    const other = await makeOwner();
    expect((await api.request('GET', `/api/rjy/${other.source.source_id}/appstore`)).headers.get('x-ratelimit-remaining')).toBe('599');
  });
});

describe('an unreachable limiter fails closed', () => {
  const saved = process.env.TABLE_RATE_LIMITS;
  afterEach(() => {
    if (saved === undefined) delete process.env.TABLE_RATE_LIMITS;
    else process.env.TABLE_RATE_LIMITS = saved;
  });

  test('a valid request gets a 5xx envelope in its language, changes nothing, and the failure is logged', async () => {
    freshMinute();
    const owner = await makeOwner();
    process.env.TABLE_RATE_LIMITS = 'no-such-rate-limit-table';
    const logged = jest.spyOn(logger, 'error');
    const res = await patchName(owner, 'should not be stored', { 'X-Lang': 'en' });
    const calls = logged.mock.calls.map(([message]) => message);
    logged.mockRestore();
    expect(calls).toContain('Dependency unavailable');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 500, msg: 'The service is temporarily unavailable, please try again later', data: { error: 'rate_limit_unavailable' } });
    expect(JSON.stringify(res.body)).not.toMatch(/no-such-rate-limit-table|ResourceNotFound/);
    expect((await getSource(owner.source.source_id))?.name).toBe('Fixture source');
  });

  test('a bad-token request is not let through to its usual answer either', async () => {
    freshMinute();
    const owner = await makeOwner();
    process.env.TABLE_RATE_LIMITS = 'no-such-rate-limit-table';
    const res = await callWithBadToken(limited.find((r) => r.function === 'update-source')!, owner);
    expect(res.status).toBe(503);
    expect(res.body.data).toMatchObject({ error: 'rate_limit_unavailable' });
  });
});
