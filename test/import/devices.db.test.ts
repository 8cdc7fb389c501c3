import { join } from 'node:path';
import { readStatsSnapshot } from '../../shared/db/repositories/stats-snapshot-repository';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { useIsolatedTables } from '../support/tables';
import { makeTenant } from '../support/fixtures';
import { createUser } from '../../shared/domain/users/user-service';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { deviceCounterKey, getDevice, listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { importDevice } from '../../shared/domain/devices/device-import';
import { derivedKid } from '../../infra/admin/import/kinds/devices';
import { certificateAuthority, issueDistributionIdentity } from '../../infra/asc-simulator/pki';
import { signedProfileContent } from '../../infra/asc-simulator/profiles';
import { admin } from '../support/admin-cli';
import { outfile, samples, tempFile, watchDynamo } from '../support/import';

beforeAll(() => useIsolatedTables());

async function newUser(tenantId = 'default'): Promise<{ userId: string; tenantId: string }> {
  const { user } = await createUser({ tenantId, name: 'mover' }, 1_700_000_000);
  return { userId: user.userId, tenantId };
}

async function counter(tenantId: string): Promise<number> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('counters'), Key: { counter: deviceCounterKey(tenantId) }, ConsistentRead: true }));
  return Number(out.Item?.value ?? 0);
}

let udidSeq = 0;
const udid = () => `00008101-${(0xb0000000000 + ++udidSeq).toString(16).padStart(16, '0')}`;

/** A row in the documented column order: udid kid type warranty beizhu pname addtime zt p12 mobileprovision. */
const row = (cells: Partial<Record<'udid' | 'kid' | 'type' | 'warranty' | 'beizhu' | 'pname' | 'addtime' | 'zt' | 'p12' | 'mobileprovision', string>>) =>
  [cells.udid ?? udid(), cells.kid ?? '\\N', cells.type ?? 'iphone', cells.warranty ?? '0', cells.beizhu ?? '', cells.pname ?? '', cells.addtime ?? '1763856000', cells.zt ?? 'normal', cells.p12 ?? '\\N', cells.mobileprovision ?? '\\N'];

describe('import --devices', () => {
  test('the INTO OUTFILE sample: escapes, \\N nulls and panel times become devices of the user; stdout is only the summary', async () => {
    const { userId } = await newUser();
    const out = await admin('import', '--devices', join(samples, 'devices.tsv'), '--user', userId);
    expect(out.code).toBe(0);
    expect(out.stdout.trim()).toBe(JSON.stringify(out.json));
    expect(out.json).toEqual({ kind: 'devices', dry_run: false, rows: 3, imported: 3, skipped: 0, unchanged: 0, errors: [] });
    expect(await getDevice('c1001')).toMatchObject({ user_id: userId, tenant_id: 'default', udid: '00008101-001A2B3C4D5E6F01', type: 'iphone', shtype: 1, beizhu: 'VIP\tcustomer', pname: "Alice's iPhone", addtime: 1763856000, zt: 'normal', enabled: true, pool: 0 });
    const [second] = await listDevicesByUserUdid(userId, '00008101-001A2B3C4D5E6F02');
    expect(second).toMatchObject({ kid: derivedKid(userId, '00008101-001A2B3C4D5E6F02', '2025-11-20 09:30:00'), type: 'ipad', beizhu: 'line one\nline two', pname: '', addtime: Date.UTC(2025, 10, 20, 9, 30) / 1000, zt: 'normal' });
    expect(await getDevice('c1003')).toMatchObject({ type: 'iphone', shtype: 6, beizhu: 'back\\slash', zt: 'revoked' });
    // Plain progress lines on a stderr that is not a terminal, ending with a final one.
    expect(out.stderr).toMatch(/import devices: 100% {2}3 rows .* done in/);
  });

  test('the panel CSV sample: header names matched, other columns ignored and reported, quoted commas and line breaks', async () => {
    const { userId } = await newUser();
    const out = await admin('import', '--devices', join(samples, 'devices.csv'), '--user', userId, '--utc-offset', '+08:00');
    expect(out.json).toMatchObject({ rows: 3, imported: 3, skipped: 0, errors: [], ignored_columns: ['id', 'uid'] });
    expect(await getDevice('c2001')).toMatchObject({ udid: '00008101-001A2B3C4D5E6F11', type: 'iphone', shtype: 2, beizhu: 'paid, via WeChat', pname: 'Carol', addtime: Date.UTC(2025, 9, 1, 4, 0) / 1000 });
    const [dan] = await listDevicesByUserUdid(userId, '00008101-001A2B3C4D5E6F12');
    expect(dan).toMatchObject({ beizhu: 'two\nlines', pname: 'Dan "the" iPad', addtime: 1759300000, zt: 'normal' });
    expect(await getDevice('c2003')).toMatchObject({ type: 'mac', shtype: 3, zt: 'expired' });
  });

  test('every validation rule: the row is reported with line, column and reason, and skipped', async () => {
    const { userId } = await newUser();
    const authority = await certificateAuthority();
    const identity = await issueDistributionIdentity(authority, { teamId: 'TEAM123456', teamName: 'Panel', notAfter: new Date('2027-01-01T00:00:00Z') });
    const profileFor = (udids: string[]) =>
      signedProfileContent(authority, { teamId: 'TEAM123456', teamName: 'Panel', name: 'p', uuid: 'u', appIdName: 'a', bundleIdentifier: '*', createdAt: new Date('2026-01-01T00:00:00Z'), expiresAt: new Date('2027-01-01T00:00:00Z'), udids, certificateDer: identity.certificateDer });
    const goodUdid = udid();
    const other = udid();
    const rows = [
      row({ udid: goodUdid, kid: 'good-1', p12: identity.p12Base64, mobileprovision: profileFor([goodUdid.toUpperCase()]) }), // line 1: good
      row({ udid: '\\N' }), //  2
      row({ udid: '00008101-001A2B3C4D5E6F0G' }), // 3
      row({ kid: 'bad kid' }), // 4
      row({ type: 'android' }), // 5
      row({ warranty: '5' }), // 6
      row({ beizhu: 'x'.repeat(201) }), // 7
      row({ beizhu: 'bell\u0007' }), // 8
      row({ pname: 'p'.repeat(101) }), // 9
      row({ pname: 'two\\nlines' }), // 10
      row({ addtime: 'yesterday' }), // 11
      row({ addtime: '2026-02-31 10:00:00' }), // 12
      row({ addtime: String(Math.floor(Date.now() / 1000) + 3 * 86_400) }), // 13
      row({ zt: 'lost' }), // 14
      row({ p12: 'not base64!' }), // 15
      row({ p12: Buffer.from('hello world!').toString('base64') }), // 16
      row({ mobileprovision: Buffer.from('not a profile').toString('base64') }), // 17
      row({ udid: other, mobileprovision: profileFor([goodUdid]) }), // 18
      [...row({}), 'extra'], // 19
      row({ udid: goodUdid, kid: 'good-1' }), // 20: same kid as line 1
    ];
    const out = await admin('import', '--devices', tempFile(outfile(rows)), '--user', userId);
    expect(out.code).toBe(0);
    expect(out.json).toMatchObject({ rows: 20, imported: 1, skipped: 19, unchanged: 0 });
    const byLine = Object.fromEntries((out.json.errors as Array<{ line: number; column: string | null; reason: string }>).map((e) => [e.line, e]));
    expect(byLine[2]).toEqual({ line: 2, column: 'udid', reason: 'is required' });
    expect(byLine[3]).toMatchObject({ column: 'udid', reason: expect.stringMatching(/not a UDID/) });
    expect(byLine[4]).toMatchObject({ column: 'kid', reason: expect.stringMatching(/letters, digits/) });
    expect(byLine[5]).toMatchObject({ column: 'type', reason: 'must be iphone, ipad, mac' });
    expect(byLine[6]).toMatchObject({ column: 'warranty', reason: 'must be one of 0, 1, 2, 3, 4, 6' });
    expect(byLine[7]).toMatchObject({ column: 'beizhu', reason: expect.stringMatching(/at most 200/) });
    expect(byLine[8]).toMatchObject({ column: 'beizhu' });
    expect(byLine[9]).toMatchObject({ column: 'pname', reason: expect.stringMatching(/at most 100/) });
    expect(byLine[10]).toMatchObject({ column: 'pname', reason: expect.stringMatching(/control characters/) });
    expect(byLine[11]).toMatchObject({ column: 'addtime', reason: expect.stringMatching(/not a time/) });
    expect(byLine[12]).toMatchObject({ column: 'addtime', reason: expect.stringMatching(/not a time/) });
    expect(byLine[13]).toMatchObject({ column: 'addtime', reason: 'in the future' });
    expect(byLine[14]).toMatchObject({ column: 'zt', reason: expect.stringMatching(/must be normal, processing/) });
    expect(byLine[15]).toMatchObject({ column: 'p12', reason: expect.stringMatching(/PKCS#12/) });
    expect(byLine[16]).toMatchObject({ column: 'p12' });
    expect(byLine[17]).toMatchObject({ column: 'mobileprovision', reason: expect.stringMatching(/not a provisioning profile/) });
    expect(byLine[18]).toMatchObject({ column: 'mobileprovision', reason: 'the profile does not list this UDID' });
    expect(byLine[19]).toMatchObject({ column: null, reason: expect.stringMatching(/11 fields/) });
    expect(byLine[20]).toMatchObject({ column: 'kid', reason: 'repeats the kid of line 1' });
    // The good row carries its certificate, and the profile's expiry as the membership expiry.
    expect(await getDevice('good-1')).toMatchObject({ p12: identity.p12Base64, ytime: Date.UTC(2027, 0, 1) / 1000 });
    expect((await listDevicesByUserUdid(userId, other)).length).toBe(0);
  });

  test('a kid stored for another device is refused and left as it was', async () => {
    const owner = await newUser();
    await importDevice({ userId: owner.userId, udid: 'c'.repeat(40), kid: 'taken-kid', beizhu: 'original' }, 1_700_000_000);
    const { userId } = await newUser();
    const out = await admin('import', '--devices', tempFile(outfile([row({ kid: 'taken-kid' })])), '--user', userId);
    expect(out.json).toMatchObject({ imported: 0, skipped: 1, errors: [{ line: 1, column: 'kid', reason: 'kid already belongs to another device' }] });
    expect(await getDevice('taken-kid')).toMatchObject({ user_id: owner.userId, beizhu: 'original' });
  });

  test('--dry-run validates and counts what would change, and writes nothing (not even ids)', async () => {
    const { tenantId } = await makeTenant();
    const { userId } = await newUser(tenantId);
    const rows = [row({}), row({}), row({ warranty: '9' })];
    const file = tempFile(outfile(rows));
    const dry = await admin('import', '--devices', file, '--user', userId, '--dry-run');
    expect(dry.json).toMatchObject({ dry_run: true, rows: 3, imported: 2, skipped: 1, unchanged: 0, errors: [{ line: 3, column: 'warranty' }] });
    expect(dry.stderr).toMatch(/import devices \(dry run\)/);
    expect(await counter(tenantId)).toBe(0);
    expect(await listDevicesByUserUdid(userId, rows[0]![0]!)).toEqual([]);
    const real = await admin('import', '--devices', file, '--user', userId);
    expect(real.json).toMatchObject({ dry_run: false, imported: 2, skipped: 1 });
  });

  test('re-running the same file changes nothing: all unchanged, no new ids, rows untouched', async () => {
    const { tenantId } = await makeTenant();
    const { userId } = await newUser(tenantId);
    const rows = Array.from({ length: 60 }, () => row({}));
    const file = tempFile(outfile(rows));
    const first = await admin('import', '--devices', file, '--user', userId);
    expect(first.json).toMatchObject({ imported: 60, unchanged: 0 });
    expect(await counter(tenantId)).toBe(60);
    const before = await listDevicesByUserUdid(userId, rows[7]![0]!);
    const { result: again, counts } = await watchDynamo(() => admin('import', '--devices', file, '--user', userId));
    expect(again.json).toMatchObject({ imported: 0, unchanged: 60, skipped: 0 });
    expect(counts.TransactWriteItems ?? 0).toBe(0);
    expect(counts.UpdateItem ?? 0).toBe(0);
    expect(await counter(tenantId)).toBe(60);
    expect(await listDevicesByUserUdid(userId, rows[7]![0]!)).toEqual(before);
  });

  test('ids are reserved per tenant with one counter update per chunk, and run consecutively', async () => {
    const { tenantId } = await makeTenant();
    const { userId } = await newUser(tenantId);
    const rows = Array.from({ length: 250 }, () => row({}));
    const { result, counts } = await watchDynamo(() => admin('import', '--devices', tempFile(outfile(rows)), '--user', userId));
    expect(result.json).toMatchObject({ imported: 250 });
    // 100 rows per chunk → 3 chunks; 50 devices per TransactWriteItems (with their owner's count) → 5, and one
    // more for each time two chunks in flight conflicted on that count.
    expect(counts.UpdateItem).toBe(3);
    expect(counts.TransactWriteItems).toBeGreaterThanOrEqual(5);
    // The owner's devices by state count every device imported, once.
    expect((await readStatsSnapshot({ userId, periods: [], subscription: false })).devices.byStatus.normal).toBe(250);
    expect(counts.BatchWriteItem ?? 0).toBe(0);
    const ids = (await Promise.all(rows.map(async (r) => (await listDevicesByUserUdid(userId, r[0]!))[0]!.id))).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
  });

  test('an import interrupted mid-file resumes when run again: every row once, unique ids', async () => {
    const { tenantId } = await makeTenant();
    const { userId } = await newUser(tenantId);
    const rows = Array.from({ length: 400 }, () => row({}));
    const file = tempFile(outfile(rows));
    const { result: broken } = await watchDynamo(() => admin('import', '--devices', file, '--user', userId), { failOn: { command: 'TransactWriteItems', nth: 4 } });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe('');
    expect(broken.stderr).toMatch(/run the same command again to resume/);
    const resumed = await admin('import', '--devices', file, '--user', userId);
    expect(resumed.code).toBe(0);
    const { imported, unchanged } = resumed.json as { imported: number; unchanged: number };
    expect(imported).toBeGreaterThan(0);
    expect(unchanged).toBeGreaterThan(0);
    expect(imported + unchanged).toBe(400);
    const devices = await Promise.all(rows.map((r) => listDevicesByUserUdid(userId, r[0]!)));
    expect(devices.every((d) => d.length === 1)).toBe(true);
    expect(new Set(devices.map((d) => d[0]!.id)).size).toBe(400);
    expect((await admin('import', '--devices', file, '--user', userId)).json).toMatchObject({ imported: 0, unchanged: 400 });
  });

  test('a file of mixed good and bad rows imports the good ones and lists the bad ones in line order', async () => {
    const { userId } = await newUser();
    const rows = Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? row({ udid: `bad-${i}` }) : row({})));
    const out = await admin('import', '--devices', tempFile(outfile(rows)), '--user', userId);
    expect(out.json).toMatchObject({ rows: 30, imported: 20, skipped: 10, unchanged: 0 });
    expect((out.json.errors as Array<{ line: number }>).map((e) => e.line)).toEqual([3, 6, 9, 12, 15, 18, 21, 24, 27, 30]);
    for (const [i, r] of rows.entries()) expect((await listDevicesByUserUdid(userId, r[0]!)).length).toBe(i % 3 === 2 ? 0 : 1);
  });

  test('flags: one file kind, an existing file, a known user', async () => {
    const { userId } = await newUser();
    const file = tempFile(outfile([row({})]));
    for (const [argv, message] of [
      [['--user', userId], /exactly one of --devices FILE/],
      [['--devices', '/nonexistent/file.tsv', '--user', userId], /--devices: no such file/],
      [['--devices', file, '--user', 'u_nobody'], /unknown user u_nobody/],
      [['--devices', file, '--user', userId, '--utc-offset', '8'], /--utc-offset/],
      [['--devices', file, '--user', userId, '--format', 'xls'], /--format/],
    ] as Array<[string[], RegExp]>) {
      const out = await admin('import', ...argv);
      expect(out.code).toBe(1);
      expect(out.stdout).toBe('');
      expect(out.stderr).toMatch(message);
    }
  });
});
