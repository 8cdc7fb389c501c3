import { getDevice, listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { setClock } from '../../shared/clock';
import { runRevocationSweep } from '../../shared/domain/accounts/revocation-sweep';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, udid40, type Testbed } from '../support/add-device-testbed';
import { expectLedgerAddsUp } from '../support/ledger';

let bed: Testbed;
let first: Awaited<ReturnType<typeof simulatedAccount>>;
beforeAll(async () => {
  bed = await startTestbed();
  first = await simulatedAccount(bed.sim, { mode: 'instant' });
});
afterAll(() => bed.close());

type Added = { id: string; mobileprovision: string };
const nowS = () => Math.floor(Date.now() / 1000);

test('repeating an add returns the same certificate without charging; force issues and charges a new one', async () => {
  const { userId, token } = await newUser(100_000);
  const udid = udid40();
  const one = await add(bed.api, { token, udid });
  const spent = 100_000 - (await balanceOf(userId));
  expect(spent).toBeGreaterThan(0);
  const two = await add(bed.api, { token, udid: udid.toUpperCase() });
  expect((two.body.data as Added).id).toBe((one.body.data as Added).id);
  expect(await balanceOf(userId)).toBe(100_000 - spent);

  const forced = await add(bed.api, { token, udid, force: 'YES' });
  expect(forced.body.code).toBe(1);
  expect((forced.body.data as Added).id).not.toBe((one.body.data as Added).id);
  expect(await balanceOf(userId)).toBe(100_000 - 2 * spent);
  expect(await listDevicesByUserUdid(userId, udid)).toHaveLength(2);
});

test('revocation: the sweep marks devices revoked; inside the window the re-add is free, outside it the force period applies', async () => {
  const { userId, token } = await newUser(100_000);
  const covered = udid25();
  const uncovered = udid25();
  const coveredAdd = (await add(bed.api, { token, udid: covered, warranty: '1' })).body.data as Added;
  const uncoveredAdd = (await add(bed.api, { token, udid: uncovered, shtype: '0' })).body.data as Added;
  const afterAdds = await balanceOf(userId);

  bed.sim.revokeCertificate(first.team.teamId);
  const report = await runRevocationSweep(nowS());
  expect(report.revokedAccounts).toEqual([first.account.accountId]);
  expect(report.revokedDevices).toBeGreaterThanOrEqual(2);
  expect((await getDevice(coveredAdd.id))?.zt).toBe('revoked');
  expect((await getDevice(uncoveredAdd.id))?.zt).toBe('revoked');

  const second = await simulatedAccount(bed.sim, { mode: 'instant' });
  const reissued = await add(bed.api, { token, udid: covered });
  expect(reissued.body.code).toBe(1);
  const reissuedDevice = await getDevice((reissued.body.data as Added).id);
  expect(reissuedDevice).toMatchObject({ zt: 'normal', shtype: 1, account_id: second.account.accountId });
  expect(await balanceOf(userId)).toBe(afterAdds);

  const refused = await add(bed.api, { token, udid: uncovered }, { lang: 'es' });
  expect(refused.body).toMatchObject({ code: 0, ysucc: 'Yerror', data: { error: 'within_force_period' } });
  expect(refused.body.msg).toBe('Dentro del periodo de adición forzada; pase force=true para intentar una nueva adición');
  expect(await balanceOf(userId)).toBe(afterAdds);

  const forced = await add(bed.api, { token, udid: uncovered, force: 'on' });
  expect(forced.body.code).toBe(1);
  expect(await balanceOf(userId)).toBeLessThan(afterAdds);
});

test('after the force-add period a revoked certificate outside its window is re-added for the price', async () => {
  const { userId, token } = await newUser(100_000);
  const udid = udid25();
  const picked = await simulatedAccount(bed.sim, { mode: 'instant', weight: 1 });
  const added = (await add(bed.api, { token, udid, warranty: '1' })).body.data as Added;
  expect((await getDevice(added.id))?.account_id).toBe(picked.account.accountId);
  bed.sim.revokeCertificate(picked.team.teamId);
  await runRevocationSweep(nowS());
  expect((await getDevice(added.id))?.zt).toBe('revoked');
  await simulatedAccount(bed.sim, { mode: 'instant' });

  // 41 days later: past the 24 h force-add period and past tier 1's 40-day window.
  const restore = setClock(() => Date.now() + 41 * 24 * 3600 * 1000);
  try {
    const before = await balanceOf(userId);
    const res = await add(bed.api, { token, udid, warranty: '1' });
    expect(res.body.code).toBe(1);
    expect(await balanceOf(userId)).toBeLessThan(before);
  } finally {
    restore();
  }
});

test('ledger check: every balance and code change above has its entry, and every kept charge its certificate', async () => {
  await expectLedgerAddsUp(undefined);
});
