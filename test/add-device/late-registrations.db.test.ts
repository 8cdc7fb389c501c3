/**
 * Apple registers a device after the add stopped waiting for its answer (a slow Apple: the answer comes later
 * than the add's wait, 8 s, and its second look 3 s after; shortened here). Found by the soak: the add looked the UDID up, found
 * nothing yet, gave the slot back and refunded; Apple then completed the registration — a registration no row
 * points at, and an account with one free slot too many. An add that does not know whether Apple registered
 * now keeps the slot noted (a possible registration) and the reservation worker settles it once it is old
 * enough: registered and unclaimed → an uncharged failed row the next add of the UDID reuses; registered and
 * claimed by a later add → that add's; not registered → the slot goes back. The customer is refunded at once.
 */
import { getAccount } from '../../shared/db/repositories/account-repository';
import { listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { priceFor } from '../../shared/domain/pricing/prices';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { makeTenant } from '../support/fixtures';
import { expectLedgerAddsUp } from '../support/ledger';
import { balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';

// The add's waits for Apple, shortened (production: 8 s and 3 s, config.ts): Apple answering later than both
// is the same path at a fifth of the time.
const WAIT_MS = 1_000;
const RECHECK_MS = 1_000;

let bed: Testbed;
beforeAll(async () => {
  process.env.APPLE_ADD_WAIT_MS = String(WAIT_MS);
  process.env.APPLE_ADD_RECHECK_MS = String(RECHECK_MS);
  bed = await startTestbed();
});
afterAll(() => bed.close());

/** Past the add's wait for Apple and its second look, with 2 s to spare (as 13 s is past 8 s + 3 s). */
const LATE_MS = WAIT_MS + RECHECK_MS + 2_000;
/** The reservation worker's pass once a possible registration is old enough to be settled. */
const sweepLater = () => runReservationWorker(Math.floor(Date.now() / 1000) + 301);

async function lateRegistration() {
  const { tenantId, host } = await makeTenant('en');
  const { account, team } = await simulatedAccount(bed.sim, { mode: 'instant', tenantId });
  const user = await newUser(10_000, tenantId);
  const udid = udid25();
  const add = (token: string) => bed.api.request('POST', '/api/adddevice/v2', { headers: { Host: host, 'X-Lang': 'en' }, json: { token, udid } });
  bed.sim.injectFault({ teamId: team.teamId, effect: 'slow', method: 'POST', path: '/v1/devices', delayMs: LATE_MS });
  const answer = await add(user.token);
  // The add gave up: the customer is refunded, and the slot stays noted until it is known what Apple did.
  expect(answer.status).toBe(503);
  expect(answer.body.data).toMatchObject({ error: 'apple_unavailable' });
  expect(await balanceOf(user.userId)).toBe(10_000);
  // Apple completes the registration after the add's answer.
  const until = Date.now() + LATE_MS + 10_000;
  while (bed.sim.registeredDevices(team.teamId).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
  expect(bed.sim.registeredDevices(team.teamId)).toHaveLength(1);
  return { tenantId, account, team, user, udid, add };
}

test('registered after the add gave up, nobody came back for it: the sweep keeps it as a failed row and the slot stays used', async () => {
  const { tenantId, account, team, user, udid } = await lateRegistration();
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
  await sweepLater();
  const [registration] = bed.sim.registeredDevices(team.teamId);
  const rows = await listDevicesByUserUdid(user.userId, udid);
  expect(rows.map((d) => ({ zt: d.zt, account: d.account_id, apple: d.apple_device_id }))).toEqual([{ zt: 'failed', account: account.accountId, apple: registration!.id }]);
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
  // A second pass changes nothing.
  await sweepLater();
  expect(await listDevicesByUserUdid(user.userId, udid)).toHaveLength(1);
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
  expect(await balanceOf(user.userId)).toBe(10_000);
  await expectLedgerAddsUp(tenantId);
}, 60_000);

test('the same user adds the UDID again before the sweep: delivered on that registration, one slot, charged once', async () => {
  const { tenantId, account, team, user, add } = await lateRegistration();
  const again = await add(user.token);
  expect(again.body.code).toBe(1);
  await sweepLater();
  expect(bed.sim.registeredDevices(team.teamId)).toHaveLength(1);
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
  const price = await priceFor({ tenantId, userId: user.userId, mode: 'instant', tier: 0, deviceClass: 'iphone' });
  expect(price).toBeGreaterThan(0);
  expect(await balanceOf(user.userId)).toBe(10_000 - price);
  await expectLedgerAddsUp(tenantId);
}, 60_000);

test('another user adds the UDID before the sweep: that add takes the registration over, one slot', async () => {
  const { tenantId, account, team, add } = await lateRegistration();
  const other = await newUser(10_000, tenantId);
  expect((await add(other.token)).body.code).toBe(1);
  await sweepLater();
  expect(bed.sim.registeredDevices(team.teamId)).toHaveLength(1);
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
  await expectLedgerAddsUp(tenantId);
}, 60_000);

/** An add whose registration Apple answered with a 503 (and did not make): the customer is refunded at once. */
async function refusedRegistration() {
  const { tenantId, host } = await makeTenant('en');
  const { account, team } = await simulatedAccount(bed.sim, { mode: 'instant', tenantId });
  const user = await newUser(10_000, tenantId);
  const udid = udid25();
  bed.sim.injectFault({ teamId: team.teamId, effect: 'unavailable', method: 'POST', path: '/v1/devices' });
  const answer = await bed.api.request('POST', '/api/adddevice/v2', { headers: { Host: host, 'X-Lang': 'en' }, json: { token: user.token, udid } });
  expect(answer.status).toBe(503);
  expect(await balanceOf(user.userId)).toBe(10_000);
  return { tenantId, account, team, user, udid };
}

test('Apple never registered it (503): the slot stays noted until the sweep, then goes back', async () => {
  const { tenantId, account, team, user, udid } = await refusedRegistration();
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
  await sweepLater();
  expect(bed.sim.registeredDevices(team.teamId)).toEqual([]);
  expect(await listDevicesByUserUdid(user.userId, udid)).toEqual([]);
  expect((await getAccount(account.accountId))!.free.iphone).toBe(100);
  await sweepLater();
  expect((await getAccount(account.accountId))!.free.iphone).toBe(100);
  await expectLedgerAddsUp(tenantId);
}, 60_000);

test('Apple cannot be asked when the sweep comes: the slot stays noted for a later pass', async () => {
  const { account, team } = await refusedRegistration();
  bed.sim.injectFault({ teamId: team.teamId, effect: 'unavailable', method: 'GET', path: '/v1/devices', times: 4 });
  await sweepLater();
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
  await sweepLater();
  expect((await getAccount(account.accountId))!.free.iphone).toBe(100);
}, 60_000);
