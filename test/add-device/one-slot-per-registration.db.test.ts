/**
 * Apple counts one slot per UDID registered on a team, however many adds reserved one for it. Found by the
 * 90-second soak (88 free slots, 11 registrations): when several adds of one UDID overlap on an account, the
 * question "does a certificate already count this registration?" was answered by looking for a row pointing
 * at it — and the row of an add still in flight is not there yet. Each test below is one such interleaving,
 * made exact with the simulator's faults; each ends with exactly one slot used for the one registration.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { getAccount } from '../../shared/db/repositories/account-repository';
import { reserveSlot } from '../../shared/db/repositories/registration-slot-repository';
import { listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { noteSlotReserved } from '../../shared/db/repositories/registration-slot-repository';
import { slotNote } from '../../shared/records/registration';
import { ascClientFor } from '../../shared/domain/accounts/account-access';
import { takeHold } from '../../shared/domain/ledger/charges';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { makeTenant } from '../support/fixtures';
import { expectLedgerAddsUp } from '../support/ledger';
import { balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

/** The reservation worker's pass once what the adds left is old enough to settle (5 minutes). */
const sweepLater = () => runReservationWorker(Math.floor(Date.now() / 1000) + 301);

async function setting() {
  const { tenantId, host } = await makeTenant('en');
  const { account, team } = await simulatedAccount(bed.sim, { mode: 'instant', tenantId });
  const udid = udid25();
  const add = (token: string) => bed.api.request('POST', '/api/adddevice/v2', { headers: { Host: host, 'X-Lang': 'en' }, json: { token, udid } });
  const freeSlots = async () => (await getAccount(account.accountId))!.free.iphone;
  const registrations = () => bed.sim.registeredDevices(team.teamId);
  return { tenantId, account, team, udid, add, freeSlots, registrations };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An add whose registration Apple refused with a 503: it cannot know Apple did nothing, so it keeps its slot. */
async function uncertainAdd(s: Awaited<ReturnType<typeof setting>>) {
  const user = await newUser(10_000, s.tenantId);
  bed.sim.injectFault({ teamId: s.team.teamId, effect: 'unavailable', method: 'POST', path: '/v1/devices' });
  expect((await s.add(user.token)).status).toBe(503);
  expect(await s.freeSlots()).toBe(99);
  expect(s.registrations()).toEqual([]);
}

test('an add registers the UDID while an uncertain add keeps a slot for it, and a third add finds the registration before the second has written its row: one slot', async () => {
  const s = await setting();
  await uncertainAdd(s);
  const [second, third] = [await newUser(10_000, s.tenantId), await newUser(10_000, s.tenantId)];
  // The second add registers, then waits on its profile: its row is not written for 3 s.
  bed.sim.injectFault({ teamId: s.team.teamId, effect: 'slow', method: 'POST', path: '/v1/profiles', delayMs: 3_000 });
  const secondAnswer = s.add(second.token);
  await until(() => s.registrations().length === 1, 'the second add has registered');
  const thirdAnswer = await s.add(third.token);
  expect(thirdAnswer.body.code).toBe(1);
  expect((await secondAnswer).body.code).toBe(1);

  expect(s.registrations()).toHaveLength(1);
  // Both certificates point at the one registration; only one of them counts its slot.
  const rows = [...(await listDevicesByUserUdid(second.userId, s.udid)), ...(await listDevicesByUserUdid(third.userId, s.udid))];
  expect(rows.map((d) => d.apple_device_id)).toEqual([s.registrations()[0]!.id, s.registrations()[0]!.id]);
  expect(await s.freeSlots()).toBe(99);
  await sweepLater();
  expect(await s.freeSlots()).toBe(99);
  await expectLedgerAddsUp(s.tenantId);
}, 60_000);

test('an add died after Apple registered the UDID, and another add of the UDID comes before the sweep: one slot', async () => {
  const s = await setting();
  // The dead add: its payment held, its slot reserved and noted on the hold, the UDID registered, no row.
  const dead = await newUser(10_000, s.tenantId);
  const holdId = `hdead${Math.random().toString(36).slice(2, 10)}`;
  expect(await takeHold({ holdId, userId: dead.userId, tenantId: s.tenantId, udid: s.udid, charge: { kind: 'balance', amount: 1000 }, createdAt: Math.floor(Date.now() / 1000) }, undefined)).toEqual({ taken: true });
  expect(await reserveSlot(s.account.accountId, 'iphone', 'instant')).toBe(true);
  await noteSlotReserved(holdId, slotNote(s.account.accountId, 'iphone'));
  await (await ascClientFor(s.account)).registerDevice({ name: 'iPhone dead add', udid: s.udid, platform: 'IOS' });

  const other = await newUser(10_000, s.tenantId);
  expect((await s.add(other.token)).body.code).toBe(1);
  await sweepLater();
  expect(await balanceOf(dead.userId)).toBe(10_000);
  expect(s.registrations()).toHaveLength(1);
  expect(await s.freeSlots()).toBe(99);
  // The other user's certificate is delivered on the registration; the dead add's user is not charged for it.
  expect((await listDevicesByUserUdid(other.userId, s.udid)).map((d) => d.zt)).toEqual(['normal']);
  await expectLedgerAddsUp(s.tenantId);
}, 60_000);

test('the worker settles an uncertain add’s slot while another add has just registered the UDID and not yet written its row: one slot', async () => {
  const s = await setting();
  await uncertainAdd(s);
  const second = await newUser(10_000, s.tenantId);
  bed.sim.injectFault({ teamId: s.team.teamId, effect: 'slow', method: 'POST', path: '/v1/profiles', delayMs: 3_000 });
  const secondAnswer = s.add(second.token);
  await until(() => s.registrations().length === 1, 'the second add has registered');
  // The worker's pass as it runs once the uncertain add's slot is old enough to settle — while the second
  // add, a few seconds old, is still in flight.
  await documentClient().send(
    new UpdateCommand({ TableName: tableName('registrations'), Key: { registration_id: `${s.account.accountId}#iphone#${s.udid.toUpperCase()}` }, UpdateExpression: 'SET created_at = created_at - :age', ExpressionAttributeValues: { ':age': 400 } }),
  );
  expect((await runReservationWorker(Math.floor(Date.now() / 1000))).settledPossible).toBe(1);
  expect((await secondAnswer).body.code).toBe(1);
  expect(s.registrations()).toHaveLength(1);
  expect(await s.freeSlots()).toBe(99);
  expect((await listDevicesByUserUdid(second.userId, s.udid)).map((d) => d.zt)).toContain('normal');
  await sweepLater();
  expect(await s.freeSlots()).toBe(99);
  await expectLedgerAddsUp(s.tenantId);
}, 60_000);
