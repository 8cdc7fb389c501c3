import { startTestApi, type TestApi } from '../support/api';
import { makeTenant, makeUser, newUdid } from '../support/fixtures';
import { expireToken, rotateToken } from '../../shared/domain/users/user-service';
import { importDevice } from '../../shared/domain/devices/device-import';
import { getDevice } from '../../shared/db/repositories/device-repository';
import type { Device } from '../../shared/records/device';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const NOW = 1_700_000_000;

async function makeDevice(userId: string, extra: Partial<{ udid: string; kid: string; addtime: number }> = {}): Promise<Device> {
  return importDevice({ userId, udid: extra.udid ?? newUdid(), kid: extra.kid, pname: 'Test iPhone', beizhu: 'vip' }, extra.addtime ?? NOW);
}

const status = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  api.request('GET', `/api/device/status?${new URLSearchParams(params).toString()}`, { headers });

describe('device status: the actions', () => {
  test('disable, then enable, from each state; the response carries the new status fields, ip and ysucc', async () => {
    const { user, token } = await makeUser();
    const device = await makeDevice(user.userId);

    const disabled = await status({ token, kid: device.kid, action: 'disable' }, { 'X-Lang': 'en' });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ code: 1, msg: 'Success', ysucc: 'Ysucc' });
    expect(typeof disabled.body.ip).toBe('string');
    expect(disabled.body.ip).not.toBe('');
    expect(typeof disabled.body.time).toBe('number');
    expect(disabled.body.data).toEqual({
      id: device.id,
      kid: device.kid,
      udid: device.udid,
      enabled: false,
      yblack: 'Yno',
      status_name: 'Disabled',
      status_code: 0,
    });
    expect((await getDevice(device.kid))?.enabled).toBe(false);

    // disable from disabled stays disabled
    const again = await status({ token, kid: device.kid, action: 'disable' }, { 'X-Lang': 'en' });
    expect(again.body.data).toMatchObject({ enabled: false, yblack: 'Yno', status_code: 0 });

    // enable from disabled
    const enabled = await status({ token, kid: device.kid, action: 'enable' }, { 'X-Lang': 'en' });
    expect(enabled.body.data).toMatchObject({ enabled: true, yblack: 'Ysucc', status_name: 'Enabled', status_code: 1 });
    expect((await getDevice(device.kid))?.enabled).toBe(true);

    // enable from enabled stays enabled
    const enabledAgain = await status({ token, kid: device.kid, action: 'enable' });
    expect(enabledAgain.body.data).toMatchObject({ enabled: true, status_code: 1 });
  });

  test('toggle (explicit, omitted or empty) flips from each state', async () => {
    const { user, token } = await makeUser();
    const device = await makeDevice(user.userId);
    const first = await status({ token, kid: device.kid, action: 'toggle' });
    expect(first.body.data).toMatchObject({ enabled: false, yblack: 'Yno', status_code: 0 });
    const second = await status({ token, kid: device.kid });
    expect(second.body.data).toMatchObject({ enabled: true, yblack: 'Ysucc', status_code: 1 });
    const third = await status({ token, kid: device.kid, action: '' });
    expect(third.body.data).toMatchObject({ enabled: false });
    const fourth = await status({ token, kid: device.kid, action: ' TOGGLE ' });
    expect(fourth.body.data).toMatchObject({ enabled: true });
    expect((await getDevice(device.kid))?.enabled).toBe(true);
  });

  test('an unknown action is code 22, HTTP 200, and changes nothing', async () => {
    const { user, token } = await makeUser();
    const device = await makeDevice(user.userId);
    for (const action of ['flip', 'enabled', '1']) {
      const res = await status({ token, kid: device.kid, action }, { 'X-Lang': 'en' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code: 22, msg: 'action must be enable, disable or toggle', ysucc: 'Yerror', data: { error: 'invalid_action' } });
      expect(typeof res.body.ip).toBe('string');
    }
    const json = await api.request('POST', '/api/device/status', { json: { token, kid: device.kid, action: { enable: true } } });
    expect(json.body.code).toBe(22);
    expect((await getDevice(device.kid))?.enabled).toBe(true);
  });

  test('the status name is localized in every language', async () => {
    const { user, token } = await makeUser();
    const device = await makeDevice(user.userId);
    const expected: Record<string, [string, string]> = {
      zh: ['已启用', '已禁用'],
      en: ['Enabled', 'Disabled'],
      'zh-TW': ['已啟用', '已停用'],
      vi: ['Đã bật', 'Đã tắt'],
      ar: ['مفعّل', 'معطّل'],
      es: ['Habilitado', 'Deshabilitado'],
      ru: ['Включено', 'Отключено'],
    };
    for (const [lang, [on, off]] of Object.entries(expected)) {
      const disabled = await status({ token, kid: device.kid, action: 'disable' }, { 'X-Lang': lang });
      expect(disabled.body.data?.status_name).toBe(off);
      const enabled = await status({ token, kid: device.kid, action: 'enable' }, { 'X-Lang': lang });
      expect(enabled.body.data?.status_name).toBe(on);
    }
    // Accept-Language with q-values, and the Chinese default without any header
    const es = await status({ token, kid: device.kid, action: 'enable' }, { 'Accept-Language': 'fr;q=1, es-MX;q=0.8' });
    expect(es.body.data?.status_name).toBe('Habilitado');
    const zh = await status({ token, kid: device.kid, action: 'enable' });
    expect(zh.body.data?.status_name).toBe('已启用');
  });

  test('N concurrent toggles leave exactly N flips', async () => {
    const { user, token } = await makeUser();
    const device = await makeDevice(user.userId);
    for (const n of [7, 12]) {
      const before = (await getDevice(device.kid))!.enabled;
      const results = await Promise.all(Array.from({ length: n }, () => status({ token, kid: device.kid, action: 'toggle' })));
      expect(results.map((r) => r.body.code)).toEqual(Array(n).fill(1));
      // every response reports a distinct intermediate state: n flips, no lost update
      const states = results.map((r) => r.body.data?.enabled);
      expect(states.filter((s) => s === !before)).toHaveLength(Math.ceil(n / 2));
      expect((await getDevice(device.kid))!.enabled).toBe(n % 2 === 0 ? before : !before);
    }
  });
});

describe('device status: GET query, POST JSON and POST form', () => {
  test('all three carry the same parameters; the body beats the query', async () => {
    const { user, token } = await makeUser();
    const device = await makeDevice(user.userId);
    const json = await api.request('POST', '/api/device/status', { json: { token, kid: device.kid, action: 'disable' } });
    expect(json.body).toMatchObject({ code: 1, ysucc: 'Ysucc', data: { enabled: false } });
    const form = await api.request('POST', '/api/device/status', { form: { token, udid: device.udid, action: 'enable' } });
    expect(form.body).toMatchObject({ code: 1, data: { enabled: true, kid: device.kid } });
    const mixed = await api.request('POST', `/api/device/status?action=enable&kid=${device.kid}`, { json: { token, action: 'disable' } });
    expect(mixed.body.data).toMatchObject({ enabled: false });
    // a JSON token in the body, the device in the query
    const split = await api.request('POST', `/api/device/status?kid=${device.kid}`, { form: { token, action: 'enable' } });
    expect(split.body.data).toMatchObject({ enabled: true });
  });
});

describe('device status: errors', () => {
  test('missing token → 12; invalid, rotated or expired token → 10; all HTTP 200 with ip and Yerror', async () => {
    const { user, token } = await makeUser();
    const device = await makeDevice(user.userId);
    const missing = await status({ kid: device.kid }, { 'X-Lang': 'en' });
    expect(missing.status).toBe(200);
    expect(missing.body).toMatchObject({ code: 12, msg: 'Token parameter missing', ysucc: 'Yerror', data: { error: 'token_missing' } });
    expect(typeof missing.body.ip).toBe('string');
    const blank = await api.request('POST', '/api/device/status', { json: { token: '  ', kid: device.kid } });
    expect(blank.body.code).toBe(12);

    const invalid = await status({ token: 'not-a-token', kid: device.kid }, { 'X-Lang': 'vi' });
    expect(invalid.status).toBe(200);
    expect(invalid.body).toMatchObject({ code: 10, msg: 'Token không hợp lệ', ysucc: 'Yerror' });

    const rotated = await makeUser();
    const rotatedDevice = await makeDevice(rotated.user.userId);
    const fresh = await rotateToken(rotated.user.userId);
    expect((await status({ token: rotated.token, kid: rotatedDevice.kid })).body.code).toBe(10);
    expect((await status({ token: fresh, kid: rotatedDevice.kid, action: 'enable' })).body.code).toBe(1);

    await expireToken(user.userId, NOW);
    const expired = await status({ token, kid: device.kid, action: 'disable' }, { 'X-Lang': 'en' });
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ code: 10, ysucc: 'Yerror' });
    expect((await getDevice(device.kid))?.enabled).toBe(true);
  });

  test('neither kid nor udid → 20; a kid that cannot be one names itself (20)', async () => {
    const { token } = await makeUser();
    const none = await status({ token, action: 'disable' }, { 'X-Lang': 'en' });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ code: 20, msg: 'Pass kid or udid to choose a device', ysucc: 'Yerror', data: { error: 'device_selector_missing' } });
    const empty = await status({ token, kid: ' ', udid: '' });
    expect(empty.body.code).toBe(20);
    const objectKid = await api.request('POST', '/api/device/status', { json: { token, kid: { $ne: '' } }, headers: { 'X-Lang': 'en' } });
    expect(objectKid.body).toMatchObject({ code: 20, data: { error: 'device_selector_invalid', fields: ['kid'] } });
    expect(objectKid.body.msg).toBe('kid and udid must be text of at most 128 characters: kid');
    const long = await status({ token, udid: 'A'.repeat(129) });
    expect(long.body).toMatchObject({ code: 20, data: { fields: ['udid'] } });
  });

  test('a UDID with several certificates and no kid → 21 with the kids; kid picks one; udid matches case-insensitively', async () => {
    const { user, token } = await makeUser();
    const udid = newUdid();
    const older = await makeDevice(user.userId, { udid, addtime: NOW });
    const newer = await makeDevice(user.userId, { udid: udid.toUpperCase(), addtime: NOW + 10 });
    const ambiguous = await status({ token, udid, action: 'disable' }, { 'X-Lang': 'en' });
    expect(ambiguous.status).toBe(200);
    expect(ambiguous.body).toMatchObject({ code: 21, msg: 'This UDID has several certificates: pass kid to choose one', data: { error: 'device_ambiguous', kids: [newer.kid, older.kid] } });
    expect((await getDevice(older.kid))?.enabled).toBe(true);
    expect((await getDevice(newer.kid))?.enabled).toBe(true);

    const picked = await status({ token, udid: udid.toUpperCase(), kid: older.kid, action: 'disable' });
    expect(picked.body).toMatchObject({ code: 1, data: { kid: older.kid, enabled: false } });
    expect((await getDevice(newer.kid))?.enabled).toBe(true);

    const single = await makeDevice(user.userId);
    const byUpper = await status({ token, udid: single.udid.toUpperCase(), action: 'disable' });
    expect(byUpper.body).toMatchObject({ code: 1, data: { kid: single.kid, udid: single.udid, enabled: false } });
  });

  test("unknown device, another user's device, and a mismatching udid all answer 100 and change nothing", async () => {
    const me = await makeUser();
    const other = await makeUser();
    const mine = await makeDevice(me.user.userId);
    const theirs = await makeDevice(other.user.userId);
    const expect100 = async (params: Record<string, string>) => {
      const res = await status({ token: me.token, action: 'disable', ...params }, { 'X-Lang': 'en' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code: 100, msg: 'Device not found or not yours', ysucc: 'Yerror', data: { error: 'device_not_found' } });
      expect(Object.keys(res.body.data ?? {})).toEqual(['error']);
      return res.body;
    };
    const unknownKid = await expect100({ kid: 'k-does-not-exist' });
    const foreignKid = await expect100({ kid: theirs.kid });
    expect(foreignKid.msg).toBe(unknownKid.msg);
    await expect100({ udid: newUdid() });
    await expect100({ udid: theirs.udid });
    // kid decides; a udid that is not that device's is refused
    await expect100({ kid: mine.kid, udid: theirs.udid });
    expect((await getDevice(theirs.kid))?.enabled).toBe(true);
    expect((await getDevice(mine.kid))?.enabled).toBe(true);
  });

  test("a valid token on another tenant's site is an unknown token there: 10, like any invalid token", async () => {
    const tenant = await makeTenant('en');
    const { user, token } = await makeUser();
    const device = await makeDevice(user.userId);
    const res = await status({ token, kid: device.kid, action: 'disable' }, { Host: tenant.host });
    expect(res.body).toMatchObject({ code: 10, msg: 'Invalid token', data: { error: 'token_invalid' } });
    const byUdid = await status({ token, udid: device.udid, action: 'disable' }, { Host: tenant.host });
    expect(byUdid.body.code).toBe(10);
    expect((await getDevice(device.kid))?.enabled).toBe(true);

    // the same user's own tenant site works
    const own = await makeUser({ tenantId: tenant.tenantId });
    const ownDevice = await makeDevice(own.user.userId);
    const ok = await status({ token: own.token, kid: ownDevice.kid, action: 'disable' }, { Host: tenant.host });
    expect(ok.body).toMatchObject({ code: 1, msg: 'Success', data: { status_name: 'Disabled' } });
  });

  test('no secret or owner field ever appears in a status response', async () => {
    const { user, token } = await makeUser();
    const device = await makeDevice(user.userId);
    const responses = [
      await status({ token, kid: device.kid }),
      await status({ token, udid: device.udid, action: 'enable' }),
      await status({ token, kid: 'nope' }),
    ];
    for (const res of responses) {
      const text = JSON.stringify(res.body);
      for (const secret of ['p12', 'mobileprovision', 'user_id', 'tenant_id', 'account_id', 'apple_device_id', 'reservation_id', user.userId, 'token_hash']) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toContain(token);
    }
  });
});
