/** Issue 33: the per-source report ceiling per hour is a tenant setting the operator CLI sets, validated. */
import { admin } from '../support/admin-cli';
import { useIsolatedTables } from '../support/tables';
import { getTenant } from '../../shared/db/repositories/tenant-repository';

beforeAll(() => useIsolatedTables());

test('tenant set --reports-per-hour sets the ceiling (1–10000) and says what it now is', async () => {
  const shop = await admin('tenant', 'create', '--name', 'Shop', '--domain', 'reports.example.com', '--lang', 'en');
  const tenantId = String(shop.json.tenant_id);
  expect((await getTenant(tenantId))?.settings.reportsPerSourcePerHour).toBe(100);
  const set = await admin('tenant', 'set', '--tenant', tenantId, '--reports-per-hour', '25');
  expect(set.code).toBe(0);
  expect(set.json).toMatchObject({ tenant_id: tenantId, reports_per_hour: 25 });
  expect((await getTenant(tenantId))?.settings.reportsPerSourcePerHour).toBe(25);
});

test.each(['0', '10001', 'many', '1.5', '-3', ''])('--reports-per-hour %j is refused naming the flag, and nothing changes', async (bad) => {
  const shop = await admin('tenant', 'create', '--name', 'Shop', '--lang', 'en');
  const tenantId = String(shop.json.tenant_id);
  const res = await admin('tenant', 'set', '--tenant', tenantId, '--reports-per-hour', bad);
  expect(res.code).not.toBe(0);
  expect(res.stderr).toMatch(/--reports-per-hour/);
  expect((await getTenant(tenantId))?.settings.reportsPerSourcePerHour).toBe(100);
});
