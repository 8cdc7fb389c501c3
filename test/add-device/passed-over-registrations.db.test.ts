/**
 * An add that registered a UDID on an account and then moved on (Apple refused the profile there) leaves the
 * registration on Apple's side, using a slot. Found by the soak: such a registration belonged to no device
 * row. It is now kept as an uncharged `failed` certificate, and the next add of the UDID reuses it.
 */
import { getAccount } from '../../shared/db/repositories/account-repository';
import { listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { makeTenant } from '../support/fixtures';
import { balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

test('the profile refused on the first account: the add delivers on the second, and the first registration is kept as a failed, uncharged row that the next add reuses', async () => {
  const { tenantId, host } = await makeTenant('en');
  const first = await simulatedAccount(bed.sim, { mode: 'instant', tenantId, weight: 1 });
  const second = await simulatedAccount(bed.sim, { mode: 'instant', tenantId, weight: 2 });
  const user = await newUser(1_000_000, tenantId);
  const udid = udid25();
  bed.sim.injectFault({ teamId: first.team.teamId, effect: 'forbidden', method: 'POST', path: '/v1/profiles' });
  const add = (params: Record<string, string> = {}) => bed.api.request('POST', '/api/adddevice/v2', { headers: { Host: host, 'X-Lang': 'en' }, json: { token: user.token, udid, ...params } });

  const answer = await add();
  expect(answer.body.code).toBe(1);
  const [registration] = bed.sim.registeredDevices(first.team.teamId);
  expect(registration).toBeDefined();
  const rows = await listDevicesByUserUdid(user.userId, udid);
  expect(rows.map((d) => [d.account_id, d.zt, d.apple_device_id]).sort()).toEqual(
    [
      [first.account.accountId, 'failed', registration!.id],
      [second.account.accountId, 'normal', bed.sim.registeredDevices(second.team.teamId)[0]!.id],
    ].sort(),
  );
  // Charged once, for the certificate delivered; each account's slots match Apple's registrations.
  expect(await balanceOf(user.userId)).toBe(1_000_000 - 1000);
  expect((await getAccount(first.account.accountId))!.free.iphone).toBe(99);
  expect((await getAccount(second.account.accountId))!.free.iphone).toBe(99);

  // The next add of the UDID goes to the account that has the registration, and uses no new slot there.
  const again = await add({ force: '1' });
  expect(again.body.code).toBe(1);
  expect(bed.sim.registeredDevices(first.team.teamId)).toHaveLength(1);
  expect((await getAccount(first.account.accountId))!.free.iphone).toBe(99);
  const latest = (await listDevicesByUserUdid(user.userId, udid)).find((d) => d.zt === 'normal' && d.account_id === first.account.accountId);
  expect(latest?.apple_device_id).toBe(registration!.id);
});
