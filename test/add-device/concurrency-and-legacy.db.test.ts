import { decodeProvisioningProfile } from '../../shared/apple/profile-reader';
import { getAccount } from '../../shared/db/repositories/account-repository';
import { listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { getReservation } from '../../shared/db/repositories/reservation-repository';
import { priceFor } from '../../shared/domain/pricing/prices';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, udid40, type Testbed } from '../support/add-device-testbed';
import { expectLedgerAddsUp } from '../support/ledger';

let bed: Testbed;
let instantAccountId: string;
let instantTeamId: string;
beforeAll(async () => {
  bed = await startTestbed();
  const instant = await simulatedAccount(bed.sim, { mode: 'instant' });
  instantAccountId = instant.account.accountId;
  instantTeamId = instant.team.teamId;
  await simulatedAccount(bed.sim, { mode: 'review' });
});
afterAll(() => bed.close());

type Added = { id: string; mobileprovision: string; p12: string };

test('20 concurrent identical adds register once, charge once and all return the same certificate', async () => {
  const { userId, token } = await newUser(100_000);
  const udid = udid40();
  const price = await priceFor({ tenantId: 'default', userId, mode: 'instant', tier: 0, deviceClass: 'iphone' });
  const freeBefore = (await getAccount(instantAccountId))!.free.iphone;
  const answers = await Promise.all(Array.from({ length: 20 }, () => add(bed.api, { token, udid })));
  expect(answers.map((a) => a.body.code)).toEqual(Array(20).fill(1));
  expect(new Set(answers.map((a) => (a.body.data as Added).id)).size).toBe(1);
  expect(await listDevicesByUserUdid(userId, udid)).toHaveLength(1);
  expect(await balanceOf(userId)).toBe(100_000 - price);
  expect((await getAccount(instantAccountId))!.free.iphone).toBe(freeBefore - 1);
});

test('concurrent forced adds of one UDID register and charge once; the others are told an add is in progress', async () => {
  const { userId, token } = await newUser(100_000);
  const udid = udid25();
  // Concurrent means the adds overlap: Apple answers the first registration 1.5 s late, so the first add still
  // holds the lock when the others ask for it. Without the delay a busy machine could let one request reach the
  // lock only after the first had delivered, and a forced add after another has delivered is a second add.
  bed.sim.injectFault({ teamId: instantTeamId, method: 'POST', path: '/v1/devices', effect: 'slow', delayMs: 1_500 });
  const answers = await Promise.all(Array.from({ length: 5 }, () => add(bed.api, { token, udid, force: 'true' })));
  expect(bed.sim.takenFaults().filter((f) => f.teamId === instantTeamId && f.effect === 'slow')).toHaveLength(1);
  expect(answers.filter((a) => a.body.code === 1)).toHaveLength(1);
  expect(answers.filter((a) => a.body.code === 0).map((a) => (a.body.data as { error: string }).error)).toEqual(Array(4).fill('add_in_progress'));
  expect(await listDevicesByUserUdid(userId, udid)).toHaveLength(1);
  expect(await balanceOf(userId)).toBe(100_000 - (await priceFor({ tenantId: 'default', userId, mode: 'instant', tier: 0, deviceClass: 'iphone' })));
});

test('legacy /api/adddevice is the instant add, whatever mode is passed', async () => {
  const { token } = await newUser();
  const udid = udid25();
  const res = await add(bed.api, { token, udid, mode: 'review' }, { path: '/api/adddevice', via: 'form' });
  expect(res.body).toMatchObject({ code: 1, ysucc: 'Ysucc' });
  expect(decodeProvisioningProfile((res.body.data as Added).mobileprovision).udids).toContain(udid);
  const bad = await add(bed.api, { token, udid: 'abc' }, { path: '/api/adddevice', via: 'query' });
  expect(bad.body).toMatchObject({ code: 0, data: { error: 'udid_invalid' } });
});

test('legacy /api/addyydevice is the review add and refuses warranty 4 and 6', async () => {
  const { token } = await newUser();
  const res = await add(bed.api, { token, udid: udid25(), mode: 'instant' }, { path: '/api/addyydevice' });
  expect(res.body.code).toBe(1);
  const data = res.body.data as Added;
  expect(data.mobileprovision).toBe('');
  expect((await getReservation(data.id))?.status).toBe('pending');
  const refused = await add(bed.api, { token, udid: udid25(), warranty: '6' }, { path: '/api/addyydevice' });
  expect(refused.body).toMatchObject({ code: 0, data: { error: 'review_warranty_unsupported' } });
});

test('ledger check: every balance and code change above has its entry, and every kept charge its certificate', async () => {
  await expectLedgerAddsUp(undefined);
});
