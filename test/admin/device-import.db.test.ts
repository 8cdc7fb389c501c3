import { admin } from '../support/admin-cli';
import { useIsolatedTables } from '../support/tables';
import { getDevice, listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';

beforeAll(() => useIsolatedTables());

async function newUser(): Promise<string> {
  const user = await admin('user', 'create', '--name', 'importer');
  return String(user.json.user_id);
}

describe('operator CLI: device import', () => {
  test('imports a certificate with the given flags and prints only {"kid","id"}', async () => {
    const userId = await newUser();
    const out = await admin('device', 'import', '--user', userId, '--udid', '00008101-001122334455667A', '--kid', 'K-legacy.1', '--type', 'ipad', '--warranty', '6', '--beizhu', 'from the old panel');
    expect(out.code).toBe(0);
    expect(out.json).toEqual({ kid: 'K-legacy.1', id: expect.any(Number) });
    expect(out.stdout.trim()).toBe(JSON.stringify(out.json));
    const stored = await getDevice('K-legacy.1');
    expect(stored).toMatchObject({
      user_id: userId,
      tenant_id: 'default',
      udid: '00008101-001122334455667A',
      type: 'ipad',
      shtype: 6,
      zt: 'normal',
      enabled: true,
      beizhu: 'from the old panel',
      pool: 0,
      ytime: 0,
    });
  });

  test('generates kids and ascending numeric ids; defaults to an iphone with warranty 0', async () => {
    const userId = await newUser();
    const udid = 'a'.repeat(40);
    const first = await admin('device', 'import', '--user', userId, '--udid', udid);
    const second = await admin('device', 'import', '--user', userId, '--udid', udid.toUpperCase());
    expect(first.code).toBe(0);
    expect(first.json.kid).not.toBe(second.json.kid);
    expect(Number(second.json.id)).toBeGreaterThan(Number(first.json.id));
    expect(await getDevice(String(first.json.kid))).toMatchObject({ type: 'iphone', shtype: 0 });
    // both certificates are found by the UDID in either case, newest first
    expect((await listDevicesByUserUdid(userId, udid)).length).toBe(2);
  });

  test('refuses bad input with a message naming the flag, and stores nothing', async () => {
    const userId = await newUser();
    const cases: Array<[string[], RegExp]> = [
      [['--udid', '00008101-001122334455667A'], /--user/],
      [['--user', userId], /--udid/],
      [['--user', userId, '--udid', 'not-a-udid'], /--udid: a UDID must be 25 characters/],
      [['--user', userId, '--udid', '00008101-001122334455667G'], /--udid/],
      [['--user', userId, '--udid', '00008101-001122334455667A', '--type', 'mac'], /--type: must be iphone or ipad/],
      [['--user', userId, '--udid', '00008101-001122334455667A', '--warranty', '5'], /--warranty: the warranty tier must be one of 0, 1, 2, 3, 4, 6/],
      [['--user', userId, '--udid', '00008101-001122334455667A', '--kid', 'bad kid/x'], /--kid: a kid may hold only/],
      [['--user', 'u_nobody', '--udid', '00008101-001122334455667A'], /unknown user u_nobody/],
      [['--user', userId, '--udid', '00008101-001122334455667A', '--color', 'red'], /unknown flag\(s\): --color/],
    ];
    for (const [flags, message] of cases) {
      const out = await admin('device', 'import', ...flags);
      expect(out.code).toBe(1);
      expect(out.stdout).toBe('');
      expect(out.stderr).toMatch(message);
    }
    expect(await listDevicesByUserUdid(userId, '00008101-001122334455667A')).toEqual([]);
  });

  test('refuses a kid that already exists and leaves the original untouched', async () => {
    const userId = await newUser();
    expect((await admin('device', 'import', '--user', userId, '--udid', 'b'.repeat(40), '--kid', 'dup-kid', '--beizhu', 'first')).code).toBe(0);
    const again = await admin('device', 'import', '--user', userId, '--udid', 'c'.repeat(40), '--kid', 'dup-kid');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/a device with kid dup-kid already exists/);
    expect(await getDevice('dup-kid')).toMatchObject({ udid: 'b'.repeat(40), beizhu: 'first' });
  });
});
