/**
 * The operator CLI and the bulk import look names up that an operator (or a panel's export) chose: a command,
 * a flag, a cell. A name an object inherits (`toString`, `__proto__`, …) is as unknown as any other.
 */
import { useIsolatedTables } from '../support/tables';
import { makeOwner } from '../support/fixtures';
import { admin } from '../support/admin-cli';
import { outfile, tempFile } from '../support/import';
import { listUnlockCodes } from '../../shared/db/repositories/protection-repository';

beforeAll(() => useIsolatedTables());

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

test.each(PROTOTYPE_NAMES)('command "%s" is an unknown command: exit 2, nothing on stdout', async (name) => {
  const run = await admin(name);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain(`Unknown command "${name}"`);
});

test.each(PROTOTYPE_NAMES)('flag --%s is an unknown flag, refused before anything is stored', async (name) => {
  const run = await admin('tenant', 'create', '--name', 'Shop', `--${name}`, 'x');
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain(`unknown flag(s): --${name}`);
});

test('an unlock-code kind named like an inherited member is not a kind', async () => {
  const o = await makeOwner();
  const rows = PROTOTYPE_NAMES.map((name, i) => [`PROTOKIND${String(i).padStart(3, '0')}`, name, '\\N', '\\N', '\\N']);
  const out = await admin('import', '--unlock-codes', tempFile(outfile(rows)), '--source', o.source.source_id, '--user', o.user.userId);
  expect(out.json).toMatchObject({ rows: rows.length, imported: 0, skipped: rows.length });
  for (const error of out.json.errors as { column: string; reason: string }[]) {
    expect(error).toMatchObject({ column: 'kind', reason: expect.stringMatching(/1 \(30 days\), 2 \(90 days\) or 3 \(360 days\)/) });
  }
  expect(await listUnlockCodes(o.source.source_id)).toEqual([]);
});
