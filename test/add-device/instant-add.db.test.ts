import { decodeProvisioningProfile } from '../../shared/apple/profile-reader';
import { P12ReadError, readP12 } from '../../shared/apple/p12-reader';
import { getDevice } from '../../shared/db/repositories/device-repository';
import { changeTenantSettings } from '../../shared/domain/tenants/tenant-service';
import { priceFor } from '../../shared/domain/pricing/prices';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, udid40, type Testbed } from '../support/add-device-testbed';
import { expectLedgerAddsUp } from '../support/ledger';

let bed: Testbed;
let team: Awaited<ReturnType<typeof simulatedAccount>>['team'];
beforeAll(async () => {
  bed = await startTestbed();
  ({ team } = await simulatedAccount(bed.sim, { mode: 'instant' }));
});
afterAll(() => bed.close());

test('an instant add returns a p12 and a mobileprovision listing the UDID, and charges the price once', async () => {
  const { userId, token } = await newUser(100_000);
  const udid = udid25();
  const price = await priceFor({ tenantId: 'default', userId, mode: 'instant', tier: 1, deviceClass: 'iphone' });
  const res = await add(bed.api, { token, udid, warranty: '1' });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ code: 1, ysucc: 'Ysucc', msg: 'Success' });
  const data = res.body.data as { id: string; pool: number; addtime: number; mobileprovision: string; p12: string };
  expect(data.pool).toBe(0);
  expect(typeof data.id).toBe('string');
  expect(Math.abs(data.addtime - Date.now() / 1000)).toBeLessThan(60);
  const profile = decodeProvisioningProfile(data.mobileprovision);
  expect(profile.udids).toContain(udid);
  expect(profile.teamId).toBe(team.teamId);
  // The account's certificate and key, re-exported under the tenant's p12 password (default '1'), never the account's.
  const p12 = readP12(data.p12, '1');
  expect(p12.hasPrivateKey).toBe(true);
  expect(p12.subjectCN).toContain(team.teamId);
  expect(p12.certificatePem).toBe(readP12(team.p12Base64, team.p12Password).certificatePem);
  expect(() => readP12(data.p12, team.p12Password)).toThrow(P12ReadError);
  expect(data.p12).not.toBe(team.p12Base64);
  expect(JSON.stringify(res.body)).not.toContain(team.p12Password);
  expect(await balanceOf(userId)).toBe(100_000 - price);

  // The device row holds exactly what the customer got, and the repeat (short-circuit) returns the same bytes.
  expect((await getDevice(data.id))?.p12).toBe(data.p12);
  const again = await add(bed.api, { token, udid, warranty: '1' });
  expect((again.body.data as { p12: string }).p12).toBe(data.p12);
});

test('a new add after the tenant changes its p12 password opens with the new password only', async () => {
  await changeTenantSettings('default', { settings: { p12Password: 'n3w pass~' } });
  try {
    const { token } = await newUser();
    const res = await add(bed.api, { token, udid: udid25() });
    const { p12 } = res.body.data as { p12: string };
    expect(readP12(p12, 'n3w pass~')).toMatchObject({ hasPrivateKey: true, subjectCN: expect.stringContaining(team.teamId) as unknown });
    expect(() => readP12(p12, '1')).toThrow(P12ReadError);
    expect(() => readP12(p12, team.p12Password)).toThrow(P12ReadError);
  } finally {
    await changeTenantSettings('default', { settings: { p12Password: '1' } });
  }
});

test('a 40-character UDID is added too, from a form body and from the query string', async () => {
  const { token } = await newUser();
  const viaForm = await add(bed.api, { token, udid: udid40() }, { via: 'form' });
  expect(viaForm.body.code).toBe(1);
  const viaQuery = await add(bed.api, { token, udid: udid40() }, { via: 'query' });
  expect(viaQuery.body.code).toBe(1);
});

test('ledger check: every balance and code change above has its entry, and every kept charge its certificate', async () => {
  await expectLedgerAddsUp(undefined);
});
