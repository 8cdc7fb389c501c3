import { listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { translate } from '../../shared/i18n/catalog';
import { expireToken } from '../../shared/domain/users/user-service';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';

let bed: Testbed;
let user: { userId: string; token: string };
beforeAll(async () => {
  bed = await startTestbed();
  await simulatedAccount(bed.sim, { mode: 'instant' });
  await simulatedAccount(bed.sim, { mode: 'review' });
  user = await newUser(100_000);
});
afterAll(() => bed.close());

const invalid = (field: string) => ({ error: 'invalid_value', fields: [field] });

test.each([
  ['a missing UDID', { udid: undefined }, { error: 'udid_invalid', fields: ['udid'] }],
  ['a 24-character UDID', { udid: 'ABCDEF12-ABCDEF1234567890'.slice(0, 24) }, { error: 'udid_invalid' }],
  ['a 25-character UDID without its dash', { udid: 'ABCDEF12ABCDEF1234567890A' }, { error: 'udid_invalid' }],
  ['a 40-character UDID with a non-hex letter', { udid: 'g'.repeat(40) }, { error: 'udid_invalid' }],
  ['an unknown mode', { mode: 'fast' }, invalid('mode')],
  ['an unknown add_mode (even with a valid mode)', { add_mode: 'later', mode: 'instant' }, invalid('add_mode')],
  ['a force outside the vocabulary', { force: 'maybe' }, invalid('force')],
  ['warranty 5', { warranty: '5' }, invalid('warranty')],
  ['a non-numeric shtype', { shtype: 'x' }, invalid('shtype')],
  ['review with warranty 4', { mode: 'review', warranty: '4' }, { error: 'review_warranty_unsupported', fields: ['warranty'] }],
  ['review with shtype 6', { add_mode: 'review', shtype: '6' }, { error: 'review_warranty_unsupported', fields: ['shtype'] }],
  ['pool type 2', { type: '2' }, invalid('type')],
  ['deviceType mac', { deviceType: 'mac' }, invalid('deviceType')],
  ['a remark over 200 characters', { beizhu: 'x'.repeat(201) }, invalid('beizhu')],
  ['a code with symbols', { code: 'AB-CD!' }, invalid('code')],
  ['an object as udid', { udid: { a: 1 } }, invalid('udid')],
])('%s is refused with code 0 and changes nothing', async (_name, params, expected) => {
  const udid = udid25();
  const res = await add(bed.api, { token: user.token, udid, ...params });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ code: 0, ysucc: 'Yerror', data: expected });
  expect(typeof res.body.msg).toBe('string');
  expect(await balanceOf(user.userId)).toBe(100_000);
  expect(await listDevicesByUserUdid(user.userId, udid)).toHaveLength(0);
});

test('the message names the parameter and follows the language', async () => {
  const res = await add(bed.api, { token: user.token, udid: udid25(), deviceType: 'watch' }, { lang: 'ru' });
  expect(res.body.msg).toBe(translate('ru', 'invalid_value', { fields: 'deviceType' }));
  const udid = await add(bed.api, { token: user.token, udid: 'short' }, { lang: 'zh-TW' });
  expect(udid.body.msg).toBe('UDID 格式無效（長度必須為 25 或 40 個字元）');
});

test('an invalid or missing token is code 0 on the add route', async () => {
  const bad = await add(bed.api, { token: 'nope', udid: udid25() });
  expect(bad.body).toMatchObject({ code: 0, msg: 'Invalid token', data: { error: 'token_invalid' } });
  const missing = await add(bed.api, { udid: udid25() });
  expect(missing.body).toMatchObject({ code: 0, data: { error: 'token_missing' } });
  const expiring = await newUser();
  await expireToken(expiring.userId, Math.floor(Date.now() / 1000) - 1);
  const expired = await add(bed.api, { token: expiring.token, udid: udid25() });
  expect(expired.body).toMatchObject({ code: 0, msg: 'Invalid token', data: { error: 'token_invalid', expired: true } });
  expect(await listDevicesByUserUdid(expiring.userId, udid25())).toHaveLength(0);
});

test('add_mode beats mode, warranty beats shtype, and the force vocabulary is case-insensitive', async () => {
  const { token } = await newUser();
  const res = await add(bed.api, { token, udid: udid25(), mode: 'instant', add_mode: 'review', warranty: '2', shtype: '6', force: 'FALSE' });
  expect(res.body.code).toBe(1);
  expect((res.body.data as { mobileprovision: string }).mobileprovision).toBe('');
  const empty = await add(bed.api, { token, udid: udid25(), warranty: '', shtype: '3', force: '' });
  expect(empty.body.code).toBe(1);
});

test('a malformed JSON body is refused, not a crash', async () => {
  const res = await bed.api.request('POST', '/api/adddevice/v2', { headers: { 'Content-Type': 'application/json', 'X-Lang': 'en' }, body: '{"token":' });
  expect(res.body).toMatchObject({ code: 0, data: { error: 'malformed_body' } });
});
