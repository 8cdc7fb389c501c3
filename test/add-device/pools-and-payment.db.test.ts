import { decodeProvisioningProfile } from '../../shared/apple/profile-reader';
import { getAccount } from '../../shared/db/repositories/account-repository';
import { getDevice } from '../../shared/db/repositories/device-repository';
import { createCode, findCode } from '../../shared/domain/pricing/activation-codes';
import { priceFor, setPrice, priceItem, userScope } from '../../shared/domain/pricing/prices';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { expectLedgerAddsUp } from '../support/ledger';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

type Added = { id: string; pool: number; mobileprovision: string };
const nowS = () => Math.floor(Date.now() / 1000);

test('with no account for the pool, mode and tier the add fails with code 0 and charges nothing', async () => {
  const { userId, token } = await newUser(100_000);
  const res = await add(bed.api, { token, udid: udid25(), warranty: '6' });
  expect(res.body).toMatchObject({ code: 0, data: { error: 'no_account_available' } });
  expect(await balanceOf(userId)).toBe(100_000);
});

test('a full account falls through to the next one, and its class is marked full', async () => {
  const full = await simulatedAccount(bed.sim, { mode: 'instant', weight: 1, deviceLimitPerClass: 1 });
  const next = await simulatedAccount(bed.sim, { mode: 'instant', weight: 2 });
  const { token } = await newUser();
  const one = (await add(bed.api, { token, udid: udid25() })).body.data as Added;
  expect(decodeProvisioningProfile(one.mobileprovision).teamId).toBe(full.team.teamId);
  const two = (await add(bed.api, { token, udid: udid25() })).body.data as Added;
  expect(decodeProvisioningProfile(two.mobileprovision).teamId).toBe(next.team.teamId);
  expect((await getAccount(full.account.accountId))?.free.iphone).toBe(0);
  // iPads have their own class: the full account still takes them.
  const ipad = (await add(bed.api, { token, udid: udid25(), deviceType: 'iPad' })).body.data as Added;
  expect(decodeProvisioningProfile(ipad.mobileprovision).teamId).toBe(full.team.teamId);
  expect((await getDevice(ipad.id))?.type).toBe('ipad');
});

test('an instant account whose devices Apple keeps PROCESSING is moved to review and the add goes to the next account', async () => {
  const misfiled = await simulatedAccount(bed.sim, { mode: 'instant', weight: 0, simulatedTeamMode: 'review' });
  const { token } = await newUser();
  const res = await add(bed.api, { token, udid: udid25() });
  expect(res.body.code).toBe(1);
  expect(decodeProvisioningProfile((res.body.data as Added).mobileprovision).teamId).not.toBe(misfiled.team.teamId);
  expect((await getAccount(misfiled.account.accountId))?.mode).toBe('review');
});

test('the private pool uses only the user’s own accounts and is free', async () => {
  const owner = await newUser(0);
  const other = await newUser(0);
  const mine = await simulatedAccount(bed.sim, { mode: 'instant', pool: 'private', userId: owner.userId });
  const res = await add(bed.api, { token: owner.token, udid: udid25(), type: '1', warranty: '3' });
  expect(res.body).toMatchObject({ code: 1, data: { pool: 1 } });
  expect(decodeProvisioningProfile((res.body.data as Added).mobileprovision).teamId).toBe(mine.team.teamId);
  expect(await balanceOf(owner.userId)).toBe(0);
  const refused = await add(bed.api, { token: other.token, udid: udid25(), type: '1' });
  expect(refused.body).toMatchObject({ code: 0, data: { error: 'no_account_available' } });
});

test('balance payment uses the personal price where it is lower, and refuses an insufficient balance', async () => {
  const { userId, token } = await newUser(700);
  const tenantPrice = await priceFor({ tenantId: 'default', userId, mode: 'instant', tier: 0, deviceClass: 'iphone' });
  expect(tenantPrice).toBeGreaterThan(700);
  const poor = await add(bed.api, { token, udid: udid25() }, { lang: 'en' });
  expect(poor.body).toMatchObject({ code: 0, data: { error: 'insufficient_balance', price: tenantPrice, balance: 700 } });
  expect(poor.body.msg).toContain('Insufficient balance');
  expect(await balanceOf(userId)).toBe(700);

  await setPrice(userScope(userId), priceItem('instant', 0, 'iphone'), 500);
  const ok = await add(bed.api, { token, udid: udid25() });
  expect(ok.body.code).toBe(1);
  expect(await balanceOf(userId)).toBe(200);
});

test('an activation code pays the add once, fixes the tier and must match the mode and the tenant', async () => {
  const { userId, token } = await newUser(0);
  const code = await createCode({ userId, mode: 'instant', tier: 2 }, nowS());
  const res = await add(bed.api, { token, udid: udid25(), code: code.code, warranty: '0' });
  expect(res.body.code).toBe(1);
  expect((await getDevice((res.body.data as Added).id))?.shtype).toBe(2);
  expect((await findCode(code.code))?.usedBy).toBe(userId);
  expect(await balanceOf(userId)).toBe(0);

  const reused = await add(bed.api, { token, udid: udid25(), code: code.code });
  expect(reused.body).toMatchObject({ code: 0, data: { error: 'code_used' } });
  const reviewCode = await createCode({ userId, mode: 'review', tier: 1 }, nowS());
  const mismatch = await add(bed.api, { token, udid: udid25(), code: reviewCode.code });
  expect(mismatch.body).toMatchObject({ code: 0, data: { error: 'code_mode_mismatch' } });
  const unknown = await add(bed.api, { token, udid: udid25(), code: 'NOSUCHCODE' });
  expect(unknown.body).toMatchObject({ code: 0, data: { error: 'code_invalid' } });
});

test('ledger check: every balance and code change above has its entry, and every kept charge its certificate', async () => {
  await expectLedgerAddsUp(undefined);
});
