/**
 * `/api/device/list`: the caller's certificates on this tenant, newest first, a page at a time, filtered, read
 * from the owner's index only, and never a secret.
 */
import { documentClient } from '../../shared/db/client';
import type { Device } from '../../shared/records/device';
import { startTestApi, type ApiResponse, type TestApi } from '../support/api';
import { makeTenant, makeUser, newUdid, storedDevice } from '../support/fixtures';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const NOW = 1_700_000_000;

const device = (user: { userId: string; tenantId: string }, extra: Partial<Device> = {}): Promise<Device> =>
  storedDevice(user, { ytime: NOW + 86_400 * 300, addtime: NOW, ...extra });

async function shopUser() {
  const { tenantId, host } = await makeTenant('en');
  const { user, token } = await makeUser({ tenantId });
  return { user, token, host };
}

const list = (who: { token: string; host: string }, params: Record<string, string> = {}, lang = 'en') =>
  api.request('GET', `/api/device/list?${new URLSearchParams({ token: who.token, ...params }).toString()}`, { headers: { Host: who.host, 'X-Lang': lang } });

const kidsOf = (res: ApiResponse) => (res.body.data!.items as Array<{ kid: string }>).map((item) => item.kid);

test('lists exactly the caller’s certificates on this tenant, newest first, with ip and ysucc and never a secret', async () => {
  const me = await shopUser();
  const other = await makeUser({ tenantId: me.user.tenantId });
  const older = await device(me.user, { addtime: NOW - 100, beizhu: '老客户' });
  const newer = await device(me.user, { addtime: NOW, type: 'ipad', shtype: 2, pool: 1, zt: 'processing', enabled: false, reservation_id: 'r_x' });
  await device(other.user);
  // The same user's certificate recorded on another tenant is not listed on this one.
  await device({ userId: me.user.userId, tenantId: 'default' });

  const res = await list(me);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ code: 1, ysucc: 'Ysucc' });
  expect(typeof res.body.ip).toBe('string');
  expect(res.body.data).toEqual({
    items: [
      { id: newer.id, kid: newer.kid, udid: newer.udid, pname: 'iPhone', type: 'ipad', shtype: 2, zt: 'processing', ytime: newer.ytime, enabled: false, beizhu: '', pool: 1, addtime: NOW },
      { id: older.id, kid: older.kid, udid: older.udid, pname: 'iPhone', type: 'iphone', shtype: 0, zt: 'normal', ytime: older.ytime, enabled: true, beizhu: '老客户', pool: 0, addtime: NOW - 100 },
    ],
    next: '',
  });
  expect(JSON.stringify(res.body)).not.toMatch(/SECRET|acct_secret|APPLEDEVICE|MIIK/);
});

test('pages through 25 certificates 10 at a time: each once, in order, next empty at the end (GET and POST alike)', async () => {
  const me = await shopUser();
  const made = [];
  for (let i = 0; i < 25; i++) made.push(await device(me.user, { addtime: NOW - i * 10 }));
  const seen: string[] = [];
  let cursor = '';
  const pages: number[] = [];
  for (let page = 0; page < 5; page++) {
    const res =
      page % 2 === 0
        ? await list(me, { limit: '10', ...(cursor ? { cursor } : {}) })
        : await api.request('POST', '/api/device/list', { headers: { Host: me.host }, json: { token: me.token, limit: 10, ...(cursor ? { cursor } : {}) } });
    expect(res.body.code).toBe(1);
    pages.push(kidsOf(res).length);
    seen.push(...kidsOf(res));
    cursor = String(res.body.data!.next);
    if (!cursor) break;
  }
  expect(pages).toEqual([10, 10, 5]);
  expect(seen).toEqual(made.map((d) => d.kid));
  // The default page is 20.
  expect(kidsOf(await list(me))).toHaveLength(20);
});

test('filters: udid (any case), zt, enabled, pool, warranty, device_type, the add time range, expires_before and beizhu (contains, any case)', async () => {
  const me = await shopUser();
  const udid = newUdid();
  const a = await device(me.user, { udid, addtime: NOW - 300, beizhu: 'VIP Customer Zhang', ytime: NOW + 10 });
  const b = await device(me.user, { udid, addtime: NOW - 200, zt: 'revoked', shtype: 3, ytime: 0 });
  const c = await device(me.user, { addtime: NOW - 100, type: 'ipad', pool: 1, enabled: false, beizhu: 'vip', ytime: NOW + 5_000 });
  const d = await device(me.user, { addtime: NOW, zt: 'expired', shtype: 3, ytime: NOW - 10 });

  expect(kidsOf(await list(me, { udid: udid.toUpperCase() }))).toEqual([b.kid, a.kid]);
  expect(kidsOf(await list(me, { zt: 'REVOKED' }))).toEqual([b.kid]);
  expect(kidsOf(await list(me, { enabled: '0' }))).toEqual([c.kid]);
  expect(kidsOf(await list(me, { enabled: 'true' }))).toEqual([d.kid, b.kid, a.kid]);
  expect(kidsOf(await list(me, { pool: '1' }))).toEqual([c.kid]);
  expect(kidsOf(await list(me, { warranty: '3' }))).toEqual([d.kid, b.kid]);
  expect(kidsOf(await list(me, { device_type: 'ipad' }))).toEqual([c.kid]);
  expect(kidsOf(await list(me, { added_from: String(NOW - 250), added_to: String(NOW - 100) }))).toEqual([c.kid, b.kid]);
  expect(kidsOf(await list(me, { added_to: String(NOW - 250) }))).toEqual([a.kid]);
  // Unknown expiry (0) never counts as expiring.
  expect(kidsOf(await list(me, { expires_before: String(NOW + 100) }))).toEqual([d.kid, a.kid]);
  expect(kidsOf(await list(me, { beizhu: 'ViP' }))).toEqual([c.kid, a.kid]);
  // Filters combine.
  expect(kidsOf(await list(me, { beizhu: 'vip', pool: '0' }))).toEqual([a.kid]);
  expect(kidsOf(await list(me, { udid, zt: 'normal' }))).toEqual([a.kid]);
  // A filtered list pages too.
  const first = await list(me, { warranty: '3', limit: '1' });
  expect(kidsOf(first)).toEqual([d.kid]);
  const second = await list(me, { warranty: '3', limit: '1', cursor: String(first.body.data!.next) });
  expect(kidsOf(second)).toEqual([b.kid]);
  expect(second.body.data!.next).toBe('');
});

test('reads only the caller’s rows through the owner index: one Query, never a Scan, whatever else the tenant holds', async () => {
  const me = await shopUser();
  const busy = await makeUser({ tenantId: me.user.tenantId });
  for (let i = 0; i < 150; i++) await device(busy.user, { addtime: NOW - i });
  const mine = await device(me.user);
  const calls: Array<{ command: string; input: Record<string, unknown> }> = [];
  const TAP = 'device-list-test-tap';
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      calls.push({ command: String(context.commandName), input: args.input as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name: TAP },
  );
  try {
    const res = await list(me);
    expect(kidsOf(res)).toEqual([mine.kid]);
  } finally {
    documentClient().middlewareStack.remove(TAP);
  }
  const deviceReads = calls.filter((call) => String(call.input.TableName).endsWith('devices'));
  expect(deviceReads).toHaveLength(1);
  expect(deviceReads[0]).toMatchObject({ command: 'QueryCommand', input: { IndexName: 'by-owner', ExpressionAttributeValues: expect.objectContaining({ ':pk': me.user.userId }) } });
  expect(calls.some((call) => call.command === 'ScanCommand')).toBe(false);
});

test('a token used on another tenant’s site is refused there like an unknown token, and lists nothing', async () => {
  const me = await shopUser();
  await device(me.user);
  const elsewhere = await makeTenant('en');
  const res = await list({ token: me.token, host: elsewhere.host });
  expect(res.body).toMatchObject({ code: 10 });
  expect(JSON.stringify(res.body)).not.toContain('items');
});

describe('bad input is refused by name, in the device envelope, and lists nothing', () => {
  test.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: '1x' }, 'limit'],
    [{ limit: '-5' }, 'limit'],
    [{ zt: 'broken' }, 'zt'],
    [{ enabled: 'maybe' }, 'enabled'],
    [{ pool: '2' }, 'pool'],
    [{ warranty: '5' }, 'warranty'],
    [{ device_type: 'watch' }, 'device_type'],
    [{ added_from: 'yesterday' }, 'added_from'],
    [{ added_to: '99999999999999999' }, 'added_to'],
    [{ expires_before: '1.5' }, 'expires_before'],
    [{ udid: 'not-a-udid' }, 'udid'],
    [{ beizhu: 'x'.repeat(201) }, 'beizhu'],
    [{ cursor: 'a/b' }, 'cursor'],
  ])('%j → invalid_value naming %s', async (params, field) => {
    const me = await shopUser();
    const res = await list(me, params as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, ysucc: 'Yerror', data: { error: 'invalid_value', fields: [field] } });
    expect(res.body.msg).toBe(`Invalid value for: ${field}`);
    expect(typeof res.body.ip).toBe('string');
  });

  test('a cursor this list did not give, an unknown parameter and a reversed range each get their own message', async () => {
    const me = await shopUser();
    const forged = Buffer.from(JSON.stringify({ k: 'x', t: 'soon' })).toString('base64url');
    expect((await list(me, { cursor: forged })).body).toMatchObject({ code: 40002, data: { error: 'cursor_invalid', fields: ['cursor'] } });
    expect((await list(me, { cursor: 'bm90IGpzb24' })).body).toMatchObject({ code: 40002, data: { error: 'cursor_invalid' } });
    const unknown = await list(me, { statuss: 'normal' }, 'ru');
    expect(unknown.body).toMatchObject({ code: 40002, msg: 'Неизвестный параметр: statuss', data: { error: 'unknown_param', fields: ['statuss'] } });
    const reversed = await list(me, { added_from: '200', added_to: '100' }, 'zh');
    expect(reversed.body).toMatchObject({ code: 40002, msg: '时间范围无效，起点晚于终点：added_from, added_to', data: { error: 'range_invalid' } });
  });

  test('no token is code 12, a bad token code 10', async () => {
    const me = await shopUser();
    expect((await api.request('GET', '/api/device/list', { headers: { Host: me.host } })).body).toMatchObject({ code: 12 });
    expect((await list({ token: 'nope', host: me.host })).body).toMatchObject({ code: 10 });
  });
});
