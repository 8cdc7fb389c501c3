/**
 * Apple's answer to a registration is lost (a 503, a dropped connection) and the add finds the UDID on the
 * team: it may be this request's registration, or one the team had before. Found by the soak: counting an
 * older registration as this add's spent a second slot on one device, so the account's free slots fell
 * below 100 − registrations.
 */
import { getAccount } from '../../shared/db/repositories/account-repository';
import { makeTenant } from '../support/fixtures';
import { newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';

// The add's waits for Apple, shortened (production: 8 s and 3 s, config.ts).
const WAIT_MS = 1_000;
const RECHECK_MS = 3_000;

let bed: Testbed;
beforeAll(async () => {
  process.env.APPLE_ADD_WAIT_MS = String(WAIT_MS);
  process.env.APPLE_ADD_RECHECK_MS = String(RECHECK_MS);
  bed = await startTestbed();
});
afterAll(() => bed.close());

test.each(['unavailable', 'lose-answer'] as const)('%s on the registration of a UDID the team already has: one registration, one slot', async (effect) => {
  const { tenantId, host } = await makeTenant('en');
  const { account, team } = await simulatedAccount(bed.sim, { mode: 'instant', tenantId });
  const [first, second] = [await newUser(1_000_000, tenantId), await newUser(1_000_000, tenantId)];
  const udid = udid25();
  const add = (token: string) => bed.api.request('POST', '/api/adddevice/v2', { headers: { Host: host, 'X-Lang': 'en' }, json: { token, udid } });

  expect((await add(first!.token)).body.code).toBe(1);
  // Another user's add of the same UDID, a while later, and Apple's answer to its registration is lost.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  bed.sim.injectFault({ teamId: team.teamId, effect, method: 'POST', path: '/v1/devices' });
  expect((await add(second!.token)).body.code).toBe(1);

  expect(bed.sim.registeredDevices(team.teamId)).toHaveLength(1);
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
});

test('Apple answers after the add gave up on it: the add looks again before giving the slot back, and keeps the registration', async () => {
  const { tenantId, host } = await makeTenant('en');
  const { account, team } = await simulatedAccount(bed.sim, { mode: 'instant', tenantId });
  const user = await newUser(1_000_000, tenantId);
  // Longer than the add's wait for Apple, shorter than that plus the second look: 1.5 s from each.
  bed.sim.injectFault({ teamId: team.teamId, effect: 'slow', method: 'POST', path: '/v1/devices', delayMs: WAIT_MS + 1_500 });
  const answer = await bed.api.request('POST', '/api/adddevice/v2', { headers: { Host: host, 'X-Lang': 'en' }, json: { token: user.token, udid: udid25() } });
  expect(answer.body.code).toBe(1);
  expect(bed.sim.registeredDevices(team.teamId)).toHaveLength(1);
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
}, 60_000);
