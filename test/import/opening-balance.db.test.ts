/** `import --balance`: a migrated user's panel balance becomes the first entry of their ledger, once. */
import { credit } from '../../shared/domain/users/user-service';
import { admin } from '../support/admin-cli';
import { makeTenant, makeUser } from '../support/fixtures';
import { expectLedgerAddsUp, ledgerOf } from '../support/ledger';
import { useIsolatedTables } from '../support/tables';

beforeAll(() => useIsolatedTables());

test('the panel balance is an opening entry; running it again changes nothing', async () => {
  const { tenantId } = await makeTenant('en');
  const { user } = await makeUser({ tenantId });
  const dry = await admin('import', '--user', user.userId, '--balance', '12345', '--dry-run');
  expect(dry).toMatchObject({ code: 0, json: { kind: 'balance', dry_run: true, outcome: 'would_import', balance: 12_345 } });
  expect(await ledgerOf(user.userId)).toEqual([]);

  const run = await admin('import', '--user', user.userId, '--balance', '12345');
  expect(run).toMatchObject({ code: 0, json: { kind: 'balance', dry_run: false, user_id: user.userId, outcome: 'imported', balance: 12_345 } });
  expect(await ledgerOf(user.userId)).toEqual([expect.objectContaining({ seq: 1, kind: 'opening', amount: 12_345, balance_after: 12_345, note: 'opening balance imported from the PHP panel' })]);
  await expectLedgerAddsUp(tenantId);

  const again = await admin('import', '--user', user.userId, '--balance', '12345');
  expect(again).toMatchObject({ code: 0, json: { outcome: 'unchanged', balance: 12_345 } });
  expect(await ledgerOf(user.userId)).toHaveLength(1);
});

test('a user who already has a ledger is refused: their balance moves by credits from then on', async () => {
  const { user } = await makeUser({ balance: 0 });
  await credit(user.userId, 100, 1_700_000_000);
  const run = await admin('import', '--user', user.userId, '--balance', '500');
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/already has a ledger .*user credit/);
  expect(await ledgerOf(user.userId)).toHaveLength(1);
});

test.each([
  [['--balance', '-5'], /--balance/],
  [['--balance', '12.50'], /--balance/],
  [['--balance', '100', '--devices', 'package.json'], /--balance is imported on its own/],
])('bad flags %j are refused and change nothing', async (flags, message) => {
  const { user } = await makeUser();
  const run = await admin('import', '--user', user.userId, ...flags);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(message);
  expect(await ledgerOf(user.userId)).toEqual([]);
});
