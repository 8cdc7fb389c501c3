import { decodeProvisioningProfile } from '../../shared/apple/profile-reader';
import { P12ReadError, readP12 } from '../../shared/apple/p12-reader';
import { getDevice } from '../../shared/db/repositories/device-repository';
import { getReservation } from '../../shared/db/repositories/reservation-repository';
import { createCode, findCode } from '../../shared/domain/pricing/activation-codes';
import { priceFor } from '../../shared/domain/pricing/prices';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { expectLedgerAddsUp } from '../support/ledger';

let bed: Testbed;
let team: Awaited<ReturnType<typeof simulatedAccount>>['team'];
beforeAll(async () => {
  bed = await startTestbed();
  ({ team } = await simulatedAccount(bed.sim, { mode: 'review' }));
});
afterAll(() => bed.close());

const nowS = () => Math.floor(Date.now() / 1000);
type Added = { id: string; mobileprovision: string; p12: string; pool: number };

test('a review add answers at once with a reservation; once Apple enables the device, repeating the add returns the profile', async () => {
  const { userId, token } = await newUser(100_000);
  const udid = udid25();
  const price = await priceFor({ tenantId: 'default', userId, mode: 'review', tier: 2, deviceClass: 'iphone' });

  const first = await add(bed.api, { token, udid, mode: 'review', warranty: '2' });
  expect(first.body).toMatchObject({ code: 1 });
  const reserved = first.body.data as Added;
  expect(reserved.mobileprovision).toBe('');
  expect(reserved.p12).not.toBe('');
  const reservation = await getReservation(reserved.id);
  expect(reservation).toMatchObject({ status: 'pending', userId });
  expect((await getDevice(reservation!.kid))?.zt).toBe('processing');
  expect(await balanceOf(userId)).toBe(100_000 - price);

  // Still processing: the worker backs off, the repeat shows the same pending reservation and charges nothing.
  expect(await runReservationWorker(nowS() + 20)).toMatchObject({ waiting: 1, issued: 0 });
  const again = await add(bed.api, { token, udid, mode: 'review', warranty: '2' });
  expect(again.body.data).toMatchObject({ id: reserved.id, mobileprovision: '' });

  bed.sim.enableDevice(udid);
  expect(await runReservationWorker(nowS() + 3600)).toMatchObject({ issued: 1 });
  expect(await getReservation(reserved.id)).toMatchObject({ status: 'issued' });

  const finished = await add(bed.api, { token, udid, mode: 'review', warranty: '2' });
  const data = finished.body.data as Added;
  expect(data.id).toBe(reserved.id);
  expect(decodeProvisioningProfile(data.mobileprovision).udids).toContain(udid);
  // The finished certificate's p12 is the one the reservation handed out: under the tenant's password ('1').
  expect(data.p12).toBe(reserved.p12);
  expect(readP12(data.p12, '1')).toMatchObject({ hasPrivateKey: true, subjectCN: expect.stringContaining(team.teamId) as unknown });
  expect(() => readP12(data.p12, team.p12Password)).toThrow(P12ReadError);
  expect(await balanceOf(userId)).toBe(100_000 - price);
});

test('a device Apple refuses fails the reservation and refunds the balance', async () => {
  const { userId, token } = await newUser(100_000);
  const udid = udid25();
  const res = await add(bed.api, { token, udid, add_mode: 'review' });
  const { id } = res.body.data as Added;
  expect(await balanceOf(userId)).toBeLessThan(100_000);

  bed.sim.markDeviceIneligible(udid);
  expect(await runReservationWorker(nowS() + 3600)).toMatchObject({ failed: 1 });
  const reservation = await getReservation(id);
  expect(reservation).toMatchObject({ status: 'failed' });
  expect((await getDevice(reservation!.kid))?.zt).toBe('ineligible');
  expect(await balanceOf(userId)).toBe(100_000);
});

test('a reservation still processing after 30 days fails and gives its activation code back', async () => {
  const { userId, token } = await newUser(0);
  const code = await createCode({ userId, mode: 'review', tier: 1 }, nowS());
  const res = await add(bed.api, { token, udid: udid25(), mode: 'review', code: code.code.toLowerCase() });
  expect(res.body.code).toBe(1);
  expect((await findCode(code.code))?.usedBy).toBe(userId);

  expect(await runReservationWorker(nowS() + 31 * 24 * 3600)).toMatchObject({ failed: 1 });
  expect(await getReservation((res.body.data as Added).id)).toMatchObject({ status: 'failed', failureReason: 'timed_out' });
  expect((await findCode(code.code))?.usedAt).toBeUndefined();
  expect(await balanceOf(userId)).toBe(0);
});

test('ledger check: every balance and code change above has its entry, and every kept charge its certificate', async () => {
  await expectLedgerAddsUp(undefined);
});
