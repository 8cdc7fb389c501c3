import { join } from 'node:path';
import { useIsolatedTables } from '../support/tables';
import { makeOwner, type Owner } from '../support/fixtures';
import { blockUdid, deviceStanding, grantUnlock, listBlocked, listMonitored, listUnlockCodes, recordMonitored } from '../../shared/db/repositories/protection-repository';
import { unlockWithCode } from '../../shared/domain/sources/protection-service';
import { normalizeUnlockCode } from '../../shared/records/protection';
import { admin } from '../support/admin-cli';
import { outfile, samples, tempFile, watchDynamo } from '../support/import';

beforeAll(() => useIsolatedTables());

const NOW = Math.floor(Date.now() / 1000);
const run = (o: Owner, flag: string, file: string, ...more: string[]) => admin('import', flag, file, '--source', o.source.source_id, '--user', o.user.userId, ...more);
const byLine = (json: Record<string, unknown>) => Object.fromEntries((json.errors as Array<{ line: number; column: string; reason: string }>).map((e) => [e.line, e]));

let seq = 0;
const udid = () => `00008101-${(0xe0000000000 + ++seq).toString(16).padStart(16, '0')}`.toUpperCase();

describe('import --unlock-codes', () => {
  test('the OUTFILE sample: kinds become days; used codes keep their UDID and times; an unlock not yet ended is granted', async () => {
    const o = await makeOwner();
    const out = await run(o, '--unlock-codes', join(samples, 'unlock-codes.tsv'));
    expect(out.json).toEqual({ kind: 'unlock codes', dry_run: false, rows: 3, imported: 3, skipped: 0, unchanged: 0, errors: [] });
    const codes = Object.fromEntries((await listUnlockCodes(o.source.source_id)).map((c) => [c.code, c]));
    expect(codes.K7P2QX9M4TNA).toMatchObject({ days: 30, udid: undefined, used_at: undefined });
    expect(codes.H3WZ8RC6YDLE).toMatchObject({ days: 360, udid: '00008101-001A2B3C4D5E6F01', used_at: Date.UTC(2026, 10, 1, 12) / 1000, ends_at: Date.UTC(2027, 9, 27, 12) / 1000 });
    expect(codes.Q2MN5VB8TGHJ).toMatchObject({ days: 90, udid: 'A1B2C3D4E5F60718293A4B5C6D7E8F9012345678', ends_at: 1737776000 });
    expect((await deviceStanding(o.source.source_id, '00008101-001A2B3C4D5E6F01')).unlockedUntil).toBe(Date.UTC(2027, 9, 27, 12) / 1000);
    // An unlock that ended in the panel grants nothing here.
    expect((await deviceStanding(o.source.source_id, 'A1B2C3D4E5F60718293A4B5C6D7E8F9012345678')).unlockedUntil).toBe(0);
    // An imported unused code unlocks like one made here; a used one refuses another UDID.
    const unlocked = await unlockWithCode({ sourceId: o.source.source_id, tenantId: 'default', udid: udid(), code: normalizeUnlockCode('k7p2qx9m4tna'), nowSeconds: NOW });
    expect(unlocked.data).toMatchObject({ days: 30, ends_at: NOW + 30 * 86_400 });
    await expect(unlockWithCode({ sourceId: o.source.source_id, tenantId: 'default', udid: udid(), code: 'H3WZ8RC6YDLE', nowSeconds: NOW })).rejects.toMatchObject({ reason: 'unlock_code_used' });
  });

  test('the panel CSV sample, then a re-run that changes nothing, and a dry run that writes nothing', async () => {
    const o = await makeOwner();
    const file = join(samples, 'unlock-codes.csv');
    const dry = await run(o, '--unlock-codes', file, '--dry-run');
    expect(dry.json).toMatchObject({ dry_run: true, imported: 2, unchanged: 0, errors: [] });
    expect(await listUnlockCodes(o.source.source_id)).toEqual([]);
    expect((await run(o, '--unlock-codes', file)).json).toMatchObject({ imported: 2, skipped: 0 });
    const before = await listUnlockCodes(o.source.source_id);
    expect(before.find((c) => c.code === 'PL4KJ3HG2FDS')).toMatchObject({ days: 90, udid: '00008101-001A2B3C4D5E6F11' });
    const { result, counts } = await watchDynamo(() => run(o, '--unlock-codes', file));
    expect(result.json).toMatchObject({ imported: 0, unchanged: 2 });
    expect(counts.TransactWriteItems ?? 0).toBe(0);
    expect(await listUnlockCodes(o.source.source_id)).toEqual(before);
  });

  test('every rule: code shape, kind, UDID, times, and a used code needs its UDID', async () => {
    const o = await makeOwner();
    const u = udid();
    const rows = [
      ['GOODCODE0001', '1', '\\N', '\\N', '\\N'], // 1
      ['bad code!', '1', '\\N', '\\N', '\\N'], // 2
      ['GOODCODE0003', '4', '\\N', '\\N', '\\N'], // 3
      ['GOODCODE0004', '\\N', '\\N', '\\N', '\\N'], // 4
      ['GOODCODE0005', '1', 'not-a-udid', '\\N', '\\N'], // 5
      ['GOODCODE0006', '1', '\\N', '1760000000', '\\N'], // 6
      ['GOODCODE0007', '1', u, '1760000000', '1750000000'], // 7
      ['GOODCODE0008', '1', u, 'soon', '\\N'], // 8
      ['GOODCODE0009', '1', u, String(NOW + 10 * 86_400), '\\N'], // 9
      ['goodcode0001', '2', '\\N', '\\N', '\\N'], // 10: the code of line 1, in another case
      ['SHORT7X', '1', '\\N', '\\N', '\\N'], // 11: shorter than 8 (issue 33: within reach of guessing)
    ];
    const out = await run(o, '--unlock-codes', tempFile(outfile(rows)));
    expect(out.json).toMatchObject({ rows: 11, imported: 1, skipped: 10 });
    const e = byLine(out.json);
    expect(e[2]).toMatchObject({ column: 'code', reason: 'letters and digits only, 8 to 32' });
    expect(e[11]).toMatchObject({ column: 'code', reason: 'letters and digits only, 8 to 32' });
    expect(e[3]).toMatchObject({ column: 'kind', reason: expect.stringMatching(/1 \(30 days\), 2 \(90 days\) or 3 \(360 days\)/) });
    expect(e[4]).toMatchObject({ column: 'kind', reason: 'is required (or days)' });
    expect(e[5]).toMatchObject({ column: 'udid' });
    expect(e[6]).toMatchObject({ column: 'udid', reason: expect.stringMatching(/needs the UDID/) });
    expect(e[7]).toMatchObject({ column: 'ends_at', reason: 'before used_at' });
    expect(e[8]).toMatchObject({ column: 'used_at', reason: expect.stringMatching(/not a time/) });
    expect(e[9]).toMatchObject({ column: 'used_at', reason: 'in the future' });
    expect(e[10]).toMatchObject({ column: 'code', reason: 'repeats the code of line 1' });
  });

  test('a UDID that already unlocked for longer keeps its unlock; the code is still imported', async () => {
    const o = await makeOwner();
    const u = udid();
    await grantUnlock(o.source.source_id, u, NOW + 400 * 86_400);
    const out = await run(o, '--unlock-codes', tempFile(outfile([['LONGER000001', '1', u, String(NOW - 86_400), '\\N']])));
    expect(out.json).toMatchObject({ imported: 1, errors: [] });
    expect((await deviceStanding(o.source.source_id, u)).unlockedUntil).toBe(NOW + 400 * 86_400);
  });
});

describe('import --blocklist', () => {
  test('the samples: UDIDs blocked with reason and time, taken out of the monitor; a re-run changes nothing', async () => {
    const o = await makeOwner();
    await recordMonitored(o.source.source_id, '00008101-001A2B3C4D5E6F21', 'adder', NOW);
    const tsv = await run(o, '--blocklist', join(samples, 'blocklist.tsv'));
    expect(tsv.json).toMatchObject({ kind: 'blocklist', imported: 2, skipped: 0, errors: [] });
    const csv = await run(o, '--blocklist', join(samples, 'blocklist.csv'));
    expect(csv.json).toMatchObject({ imported: 1 });
    const blocked = Object.fromEntries((await listBlocked(o.source.source_id)).map((b) => [b.udid, b]));
    expect(blocked['00008101-001A2B3C4D5E6F21']).toEqual({ udid: '00008101-001A2B3C4D5E6F21', reason: 'adder', added_at: 1761990000 });
    expect(blocked['A1B2C3D4E5F60718293A4B5C6D7E8F90123456BB']).toMatchObject({ reason: 'manual', added_at: Date.UTC(2025, 9, 20, 8) / 1000 });
    expect(blocked['00008101-001A2B3C4D5E6F31']).toMatchObject({ reason: 'cracker' });
    expect(await listMonitored(o.source.source_id)).toEqual([]);
    expect((await deviceStanding(o.source.source_id, '00008101-001A2B3C4D5E6F21')).blocked).toBe(true);
    expect((await run(o, '--blocklist', join(samples, 'blocklist.tsv'))).json).toMatchObject({ imported: 0, unchanged: 2 });
  });

  test('rules: UDID, reason, time', async () => {
    const o = await makeOwner();
    const out = await run(o, '--blocklist', tempFile(outfile([['nope', 'manual', '\\N'], [udid(), 'robot', '\\N'], [udid(), 'manual', 'later'], [udid(), '\\N', '\\N']])));
    expect(out.json).toMatchObject({ rows: 4, imported: 1, skipped: 3 });
    expect(out.json.errors).toEqual([
      { line: 1, column: 'udid', reason: expect.stringMatching(/not a UDID/) },
      { line: 2, column: 'reason', reason: 'must be adder, cracker, manual' },
      { line: 3, column: 'added_at', reason: expect.stringMatching(/not a time/) },
    ]);
  });
});

describe('import --monitor', () => {
  test('the samples: role, count and first/last report; a blocked UDID is refused (dry run too); re-run unchanged', async () => {
    const o = await makeOwner();
    await blockUdid(o.source.source_id, '00008101-001A2B3C4D5E6F42', 'manual', NOW);
    const dry = await run(o, '--monitor', join(samples, 'monitor.tsv'), '--dry-run');
    expect(dry.json).toMatchObject({ imported: 1, skipped: 1, errors: [{ line: 2, column: 'udid', reason: expect.stringMatching(/blocks this UDID/) }] });
    expect(await listMonitored(o.source.source_id)).toEqual([]);
    const out = await run(o, '--monitor', join(samples, 'monitor.tsv'));
    expect(out.json).toMatchObject({ imported: 1, skipped: 1, errors: [{ line: 2, column: 'udid' }] });
    expect((await run(o, '--monitor', join(samples, 'monitor.csv'))).json).toMatchObject({ imported: 1 });
    const monitored = Object.fromEntries((await listMonitored(o.source.source_id)).map((m) => [m.udid, m]));
    expect(monitored['00008101-001A2B3C4D5E6F41']).toEqual({ udid: '00008101-001A2B3C4D5E6F41', role: 'adder', count: 3, first_seen: 1761000000, last_seen: 1762000000 });
    expect(monitored['00008101-001A2B3C4D5E6F51']).toMatchObject({ count: 7 });
    expect((await run(o, '--monitor', join(samples, 'monitor.csv'))).json).toMatchObject({ imported: 0, unchanged: 1 });
  });

  test('rules: role required, count, times in order, one row per UDID and role', async () => {
    const o = await makeOwner();
    const u = udid();
    const out = await run(o, '--monitor', tempFile(outfile([[u, '\\N', '1', '\\N', '\\N'], [u, 'adder', '0', '\\N', '\\N'], [u, 'adder', '2', '1762000000', '1761000000'], [u, 'cracker', '\\N', '\\N', '\\N'], [u, 'CRACKER', '5', '\\N', '\\N']])));
    expect(out.json).toMatchObject({ rows: 5, imported: 1, skipped: 4 });
    expect((out.json.errors as Array<{ line: number; column: string; reason: string }>).map((e) => [e.line, e.column, e.reason])).toEqual([
      [1, 'role', 'is required'],
      [2, 'count', 'a whole number of reports, at least 1'],
      [3, 'last_seen', 'before first_seen'],
      [5, 'udid', 'repeats the udid and role of line 4'],
    ]);
    expect((await listMonitored(o.source.source_id))[0]).toMatchObject({ role: 'cracker', count: 1 });
  });

  test('an import interrupted mid-file resumes: every row once', async () => {
    const o = await makeOwner();
    const rows = Array.from({ length: 150 }, () => [udid(), 'adder', '2', '1761000000', '1762000000']);
    const file = tempFile(outfile(rows));
    const { result: broken } = await watchDynamo(() => run(o, '--monitor', file), { failOn: { command: 'TransactWriteItems', nth: 2 } });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/run the same command again to resume/);
    const written = (await listMonitored(o.source.source_id)).length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(150);
    const resumed = await run(o, '--monitor', file);
    expect(resumed.json).toMatchObject({ imported: 150 - written, unchanged: written });
    expect((await listMonitored(o.source.source_id)).length).toBe(150);
  });
});
