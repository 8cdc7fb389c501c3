/**
 * Apple counts a registration's slot in the class it reports for the device (from the hardware), not the one
 * an add asked for (`deviceType`). Found by the soak: an iPad add of a UDID an iPhone add had registered (its
 * answer lost) kept an iPad slot for Apple's iPhone registration, and the worker then gave the iPhone slot
 * back — the account counted iPhone 100 / iPad 99 free while Apple held one iPhone.
 */
import { getAccount } from '../../shared/db/repositories/account-repository';
import { listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { ascClientFor } from '../../shared/domain/accounts/account-access';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { makeTenant } from '../support/fixtures';
import { newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

/** Past every wait for a lost answer: the reservation worker settles what adds kept. */
const settleKept = () => runReservationWorker(Math.floor(Date.now() / 1000) + 301);

async function setUp() {
  const { tenantId, host } = await makeTenant('en');
  const { account, team } = await simulatedAccount(bed.sim, { mode: 'instant', tenantId });
  const udid = udid25();
  const add = (token: string, deviceType: 'iphone' | 'ipad') => bed.api.request('POST', '/api/adddevice/v2', { headers: { Host: host, 'X-Lang': 'en' }, json: { token, udid, deviceType } });
  /**
   * The next add cannot tell whether Apple registered its UDID: Apple's answer is lost (`lose-answer`: after
   * registering it; `unavailable`: before), and the next two lookups fail.
   */
  const loseRegistration = (effect: 'lose-answer' | 'unavailable' = 'lose-answer') => {
    bed.sim.injectFault({ teamId: team.teamId, effect, method: 'POST', path: '/v1/devices' });
    bed.sim.injectFault({ teamId: team.teamId, effect: 'unavailable', method: 'GET', path: '/v1/devices', times: 2 });
  };
  const free = async () => (await getAccount(account.accountId))!.free;
  const classes = () => bed.sim.registeredDevices(team.teamId).map((r) => r.deviceClass);
  return { tenantId, account, udid, add, loseRegistration, free, classes };
}

test.each([
  { asked: 'iphone', second: 'ipad', apple: 'IPHONE', free: { iphone: 99, ipad: 100 } },
  { asked: 'ipad', second: 'iphone', apple: 'IPAD', free: { iphone: 100, ipad: 99 } },
] as const)('an $asked add whose registration answer is lost, then an $second add of the same UDID: one $apple slot', async ({ asked, second, apple, free }) => {
  const s = await setUp();
  const [a, b] = [await newUser(100_000, s.tenantId), await newUser(100_000, s.tenantId)];
  s.loseRegistration();
  expect((await s.add(a.token, asked)).body.data).toMatchObject({ error: 'apple_unavailable' });
  const answer = await s.add(b.token, second);
  await settleKept();

  expect(answer.body.code).toBe(1);
  expect(s.classes()).toEqual([apple]);
  expect(await s.free()).toMatchObject(free);
  // The certificate is for the hardware Apple registered, whatever the add asked for.
  expect((await listDevicesByUserUdid(b.userId, s.udid))[0]).toMatchObject({ zt: 'normal', type: apple.toLowerCase() });
}, 60_000);

test('an iPad add of a UDID Apple has as an iPhone (nobody counted it): one iPhone slot, the iPad slot back', async () => {
  const s = await setUp();
  await (await ascClientFor(s.account)).registerDevice({ name: 'iPhone', udid: s.udid, platform: 'IOS' });
  const user = await newUser(100_000, s.tenantId);

  expect((await s.add(user.token, 'ipad')).body.code).toBe(1);
  expect(s.classes()).toEqual(['IPHONE']);
  expect(await s.free()).toMatchObject({ iphone: 99, ipad: 100 });
});

test('an iPhone add keeps its slot for a registration Apple has as an iPad: the worker counts one iPad slot and gives the iPhone slot back', async () => {
  const s = await setUp();
  await (await ascClientFor(s.account)).registerDevice({ name: 'iPad', udid: s.udid, platform: 'IOS' });
  const user = await newUser(100_000, s.tenantId);
  s.loseRegistration('unavailable');
  expect((await s.add(user.token, 'iphone')).body.data).toMatchObject({ error: 'apple_unavailable' });
  await settleKept();

  expect(s.classes()).toEqual(['IPAD']);
  expect(await s.free()).toMatchObject({ iphone: 100, ipad: 99 });
  // The worker's kept row is the registration's owner: a later add of the UDID there spends no other slot.
  expect((await s.add(user.token, 'ipad')).body.code).toBe(1);
  expect(await s.free()).toMatchObject({ iphone: 100, ipad: 99 });
}, 60_000);
