import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProvisioningProfile } from '../../shared/apple/profile-reader';
import { P12ReadError, readP12 } from '../../shared/apple/p12-reader';
import { getDevice } from '../../shared/db/repositories/device-repository';
import { requireTenant } from '../../shared/domain/tenants/tenant-service';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { admin } from '../support/admin-cli';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
  process.env.ASC_SIM_URL = bed.sim.url;
});
afterAll(async () => {
  delete process.env.ASC_SIM_URL;
  await bed.close();
});

test('account add --simulated, code create, tenant set-price: a user adds with a code and for the set price', async () => {
  const added = await admin('account', 'add', '--pool', 'public', '--mode', 'instant', '--simulated');
  expect(added.code).toBe(0);
  expect(added.json).toMatchObject({ pool: 'public', mode: 'instant', simulated: true, status: 'active' });
  expect(JSON.stringify(added.json)).not.toMatch(/PRIVATE KEY|p12/i);
  const listed = await admin('account', 'list');
  expect((listed.json.accounts as unknown[]).length).toBe(1);

  const { userId, token } = await newUser(5_000);
  const code = await admin('code', 'create', '--user', userId, '--mode', 'instant', '--warranty', '3');
  expect(code.code).toBe(0);
  const viaCode = await add(bed.api, { token, udid: udid25(), code: String(code.json.code) });
  expect(viaCode.body.code).toBe(1);
  expect(await balanceOf(userId)).toBe(5_000);

  expect((await admin('tenant', 'set-price', '--mode', 'instant', '--warranty', '0', '--price', '1234')).code).toBe(0);
  await add(bed.api, { token, udid: udid25() });
  expect(await balanceOf(userId)).toBe(5_000 - 1234);
});

test('account revoke: Apple revokes the simulated certificate and the account’s devices show revoked', async () => {
  const account = await admin('account', 'add', '--mode', 'instant', '--simulated', '--weight', '1');
  const { token } = await newUser();
  const res = await add(bed.api, { token, udid: udid25() });
  const kid = (res.body.data as { id: string }).id;
  expect((await getDevice(kid))?.account_id).toBe(account.json.account_id);
  const revoked = await admin('account', 'revoke', '--account', String(account.json.account_id));
  expect(revoked.code).toBe(0);
  expect(revoked.json).toEqual({ account_id: account.json.account_id, revoked_devices: 1 });
  expect((await getDevice(kid))?.zt).toBe('revoked');
});

test('tenant set changes the force-add period and warranty windows; bad flags are refused', async () => {
  const set = await admin('tenant', 'set', '--force-period-hours', '2', '--warranty-windows', '1=45');
  expect(set.json).toMatchObject({ tenant_id: 'default', force_period_hours: 2, warranty_windows: { '1': 45, '2': 180 } });
  expect((await requireTenant('default')).settings.forceAddPeriodSeconds).toBe(7200);
  expect((await admin('tenant', 'set')).code).not.toBe(0);
  expect((await admin('tenant', 'set', '--warranty-windows', '5=10')).code).not.toBe(0);
  expect((await admin('code', 'create', '--user', 'u_nobody', '--mode', 'instant')).stderr).toContain('unknown user');
  expect((await admin('code', 'create', '--user', (await newUser()).userId, '--mode', 'review', '--warranty', '6')).code).not.toBe(0);
  expect((await admin('account', 'add', '--mode', 'instant')).stderr).toContain('--issuer-id');
  expect((await admin('account', 'add', '--mode', 'review', '--simulated', '--tiers', '0,4')).stderr).toContain('cannot offer');
  // the service's refusal names no flag; the CLI adds the one that fixes it
  expect((await admin('account', 'add', '--mode', 'instant', '--simulated', '--pool', 'private')).stderr).toBe('Error: a private account needs a user: pass --user\n');
  expect((await admin('account', 'add', '--mode', 'instant', '--simulated', '--user', 'u_any')).stderr).toBe('Error: a public account belongs to a tenant, not a user: drop --user\n');
});

test('account add with a team’s own files (.p8, .p12 + password) works, and refuses a wrong .p12 password', async () => {
  const team = await bed.sim.createTeam({ mode: 'instant' });
  const dir = mkdtempSync(join(tmpdir(), 'team-'));
  writeFileSync(join(dir, 'key.p8'), team.privateKeyPem);
  writeFileSync(join(dir, 'dist.p12'), Buffer.from(team.p12Base64, 'base64'));
  const real = ['account', 'add', '--mode', 'instant', '--weight', '0', '--issuer-id', team.issuerId, '--key-id', team.keyId, '--p8', join(dir, 'key.p8'), '--certificate-id', team.certificateId, '--bundle-id', team.bundleIdId, '--p12', join(dir, 'dist.p12'), '--base-url', team.baseUrl, '--team-id', team.teamId];
  const wrong = await admin(...real, '--p12-password', 'not-it');
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain('--p12');
  const added = await admin(...real, '--p12-password', team.p12Password);
  expect(added.json).toMatchObject({ simulated: false, team_id: team.teamId, expires_at: 0 });
  const { token } = await newUser();
  const res = await add(bed.api, { token, udid: udid25() });
  expect(res.body.code).toBe(1);
  expect(decodeProvisioningProfile((res.body.data as { mobileprovision: string }).mobileprovision).teamId).toBe(team.teamId);
});

test('tenant set --p12-password: the next add’s p12 opens with it; an empty or bad password is refused', async () => {
  const { team } = await simulatedAccount(bed.sim, { mode: 'instant', weight: -1 });
  const empty = await admin('tenant', 'set', '--p12-password', '');
  expect(empty.code).toBe(1);
  expect(empty.stderr).toContain('--p12-password: must not be empty');
  expect((await admin('tenant', 'set', '--p12-password')).stderr).toContain('--p12-password: requires a value');
  expect((await admin('tenant', 'set', '--p12-password', 'x'.repeat(65))).stderr).toContain('at most 64');
  expect((await admin('tenant', 'set', '--p12-password', 'pässword')).stderr).toContain('printable');
  expect((await requireTenant('default')).settings.p12Password).toBe('1');

  const set = await admin('tenant', 'set', '--p12-password', 'Shop#2026');
  expect(set.code).toBe(0);
  expect(set.json).toMatchObject({ tenant_id: 'default', p12_password: 'Shop#2026' });
  const { token } = await newUser();
  const res = await add(bed.api, { token, udid: udid25() });
  const { p12 } = res.body.data as { p12: string };
  expect(readP12(p12, 'Shop#2026')).toMatchObject({ hasPrivateKey: true, subjectCN: expect.stringContaining(team.teamId) as unknown });
  expect(() => readP12(p12, '1')).toThrow(P12ReadError);
  expect(() => readP12(p12, team.p12Password)).toThrow(P12ReadError);
});
