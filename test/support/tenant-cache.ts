import { clearTenantCache } from '../../shared/domain/tenants/host-tenant';

/**
 * For a test file whose requests all come to tenants nothing changes: the tenant of a Host is read once and
 * kept, as a warm function keeps it (TENANT_CACHE_SECONDS), instead of two DynamoDB reads before every request.
 * Only for files that send thousands of requests and prove something else than the tenant lookup (the names a
 * request carries, its limits); the rest of the suite runs with the cache off (`env.ts`), so the lookup itself
 * is read on every request there, and the cache has its own tests. Call at the top level of the file.
 */
export function keepTenantsCached(): void {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.TENANT_CACHE_SECONDS;
    process.env.TENANT_CACHE_SECONDS = '3600';
    clearTenantCache();
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TENANT_CACHE_SECONDS;
    else process.env.TENANT_CACHE_SECONDS = before;
    clearTenantCache();
  });
}
