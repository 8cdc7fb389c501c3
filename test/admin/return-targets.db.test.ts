/** Issue 39: the storefront return targets a UDID capture may send a device to are a tenant setting the operator CLI sets, validated. */
import { admin } from '../support/admin-cli';
import { useIsolatedTables } from '../support/tables';
import { getTenant } from '../../shared/db/repositories/tenant-repository';

beforeAll(() => useIsolatedTables());

test('tenant set --return-targets sets the list (normalized, duplicates once), says what it now is; none clears it', async () => {
  const shop = await admin('tenant', 'create', '--name', 'Shop', '--lang', 'en');
  const tenantId = String(shop.json.tenant_id);
  expect((await getTenant(tenantId))?.settings.returnTargets).toEqual([]);
  const set = await admin('tenant', 'set', '--tenant', tenantId, '--return-targets', 'https://Shop.Example.com:443/udid, https://shop.example.com/udid,http://localhost:8080/back');
  expect(set.code).toBe(0);
  expect(set.json).toMatchObject({ tenant_id: tenantId, return_targets: ['https://shop.example.com/udid', 'http://localhost:8080/back'] });
  expect((await getTenant(tenantId))?.settings.returnTargets).toEqual(['https://shop.example.com/udid', 'http://localhost:8080/back']);
  expect((await admin('tenant', 'set', '--tenant', tenantId, '--return-targets', 'none')).json).toMatchObject({ return_targets: [] });
});

test.each(['http://shop.example.com/udid', 'https://shop.example.com/udid?x=1', 'https://shop.example.com/udid#f', 'https://u:p@shop.example.com/', 'javascript:alert(1)', 'shop.example.com', ''])(
  '--return-targets %j is refused naming the flag, and nothing changes',
  async (bad) => {
    const shop = await admin('tenant', 'create', '--name', 'Shop', '--lang', 'en');
    const tenantId = String(shop.json.tenant_id);
    const res = await admin('tenant', 'set', '--tenant', tenantId, '--return-targets', bad);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/--return-targets/);
    expect((await getTenant(tenantId))?.settings.returnTargets).toEqual([]);
  },
);
