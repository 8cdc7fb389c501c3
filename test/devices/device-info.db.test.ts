import { startTestApi, type TestApi } from '../support/api';
import { makeTenant, makeUser, newUdid, storedDevice } from '../support/fixtures';
import { expireToken } from '../../shared/domain/users/user-service';
import { importDevice } from '../../shared/domain/devices/device-import';
import type { Device } from '../../shared/records/device';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const NOW = 1_700_000_000;

/** A certificate as the add flow stores it, an iPad with a reservation. */
const issuedDevice = (user: { userId: string; tenantId: string }, extra: Partial<Device> = {}): Promise<Device> =>
  storedDevice(user, { pname: 'iPad Pro', type: 'ipad', shtype: 2, beizhu: '备注 ✓', addtime: NOW, reservation_id: 'r_secret_res', ...extra });

const info = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  api.request('GET', `/api/device/info?${new URLSearchParams(params).toString()}`, { headers });

describe('device info', () => {
  test('answers exactly the info fields, with ip and ysucc, and never a secret', async () => {
    const { user, token } = await makeUser();
    const device = await issuedDevice(user);
    const res = await info({ token, kid: device.kid }, { 'X-Lang': 'en' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 1, msg: 'Success', ysucc: 'Ysucc' });
    expect(typeof res.body.ip).toBe('string');
    expect(res.body.data).toEqual({
      kid: device.kid,
      udid: device.udid,
      pname: 'iPad Pro',
      type: 'ipad',
      shtype: 2,
      zt: 'normal',
      ytime: 1_760_000_000,
      enabled: true,
      beizhu: '备注 ✓',
    });
    const text = JSON.stringify(res.body);
    for (const secret of [device.p12, device.mobileprovision, device.account_id, device.reservation_id, device.apple_device_id, user.userId, 'default', 'p12', 'mobileprovision', token]) {
      expect(text).not.toContain(secret);
    }
  });

  test('GET query, POST JSON and POST form all work; udid matches case-insensitively; kid decides', async () => {
    const { user, token } = await makeUser();
    const device = await issuedDevice(user, { zt: 'revoked' });
    const byJson = await api.request('POST', '/api/device/info', { json: { token, udid: device.udid.toUpperCase() } });
    expect(byJson.body).toMatchObject({ code: 1, data: { kid: device.kid, zt: 'revoked' } });
    const byForm = await api.request('POST', '/api/device/info', { form: { token, kid: device.kid, udid: device.udid } });
    expect(byForm.body).toMatchObject({ code: 1, data: { kid: device.kid } });
    const mismatch = await info({ token, kid: device.kid, udid: newUdid() }, { 'X-Lang': 'es' });
    expect(mismatch.body).toMatchObject({ code: 100, msg: 'El dispositivo no existe o no le pertenece', ysucc: 'Yerror' });
  });

  test('reflects a status change at once (disabled reads back as disabled)', async () => {
    const { user, token } = await makeUser();
    const device = await issuedDevice(user);
    await api.request('GET', `/api/device/status?token=${token}&kid=${device.kid}&action=disable`);
    expect((await info({ token, udid: device.udid })).body.data).toMatchObject({ enabled: false });
  });

  test('an imported certificate reads back with the defaults of an import', async () => {
    const { user, token } = await makeUser();
    const device = await importDevice({ userId: user.userId, udid: newUdid().toUpperCase(), type: 'ipad', warranty: 3, beizhu: 'moved over' }, NOW);
    const res = await info({ token, kid: device.kid });
    expect(res.body.data).toEqual({ kid: device.kid, udid: device.udid, pname: '', type: 'ipad', shtype: 3, zt: 'normal', ytime: 0, enabled: true, beizhu: 'moved over' });
  });

  test('errors: 12, 10 (invalid and expired), 20, 21, 100 — localized, HTTP 200, ip and Yerror on each', async () => {
    const { user, token } = await makeUser();
    const other = await makeUser();
    const udid = newUdid();
    const a = await issuedDevice(user, { udid, addtime: NOW });
    const b = await issuedDevice(user, { udid, addtime: NOW + 5, pool: 1 });
    const theirs = await issuedDevice(other.user);

    const cases: Array<[Record<string, string>, number, string, string]> = [
      [{ kid: a.kid }, 12, 'zh', '缺少 token 参数'],
      [{ token: 'wrong', kid: a.kid }, 10, 'ru', 'Недействительный токен'],
      [{ token }, 20, 'zh-TW', '請提供 kid 或 udid 參數'],
      [{ token, udid }, 21, 'ar', 'لهذا الـ UDID عدة شهادات: أرسل kid لاختيار واحدة'],
      [{ token, kid: theirs.kid }, 100, 'en', 'Device not found or not yours'],
      [{ token, udid: theirs.udid }, 100, 'vi', 'Không tìm thấy thiết bị hoặc thiết bị không thuộc về bạn'],
      [{ token, kid: 'k-unknown' }, 100, 'en', 'Device not found or not yours'],
    ];
    for (const [params, code, lang, msg] of cases) {
      const res = await info(params, { 'X-Lang': lang });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code, msg, ysucc: 'Yerror' });
      expect(typeof res.body.ip).toBe('string');
      expect(JSON.stringify(res.body)).not.toContain('SECRET');
    }
    const ambiguous = await info({ token, udid });
    expect(ambiguous.body.data).toEqual({ error: 'device_ambiguous', kids: [b.kid, a.kid] });
    expect((await info({ token, kid: b.kid, udid })).body.data).toMatchObject({ kid: b.kid });

    await expireToken(user.userId, NOW);
    const expired = await info({ token, kid: a.kid }, { 'X-Lang': 'en' });
    expect(expired.body).toMatchObject({ code: 10, msg: 'Invalid token', ysucc: 'Yerror', data: { error: 'token_invalid', expired: true } });
  });

  test("another tenant's site: the user's token is an unknown token there (10)", async () => {
    const tenant = await makeTenant('ru');
    const { user, token } = await makeUser();
    const device = await issuedDevice(user);
    const res = await info({ token, kid: device.kid }, { Host: tenant.host });
    expect(res.body).toMatchObject({ code: 10, msg: 'Недействительный токен', data: { error: 'token_invalid' } });
  });
});
