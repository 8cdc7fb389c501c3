/**
 * The tenant of a request's Host, cached in the container: found and not found alike, for
 * TENANT_CACHE_SECONDS (default 30; 0 turns the cache off). So a changed tenant (`tenant set`) reaches running
 * functions within that time, and a warm function resolves its tenant without a DynamoDB call.
 */
import { nowMs } from '../../clock';
import { config } from '../../config';
import { getDefaultTenant, getTenantByHost } from '../../db/repositories/tenant-repository';
import { tableName } from '../../db/table-names';
import { normalizeHost, type Tenant } from '../../records/tenant';

/** Hosts come from callers: bound the cache so a flood of made-up hosts cannot grow it without end. */
const MAX_ENTRIES = 1_000;

/** No DNS name is longer; a longer Host belongs to no tenant (and would exceed DynamoDB's key size). */
const MAX_HOST_LENGTH = 253;

const cache = new Map<string, { value: Tenant | undefined; expiresAt: number }>();

export function tenantCacheSeconds(): number {
  return config().tenantCacheSeconds;
}

async function cached(key: string, load: () => Promise<Tenant | undefined>): Promise<Tenant | undefined> {
  const ttlMs = tenantCacheSeconds() * 1000;
  if (ttlMs === 0) return load();
  // The table name is part of the key: tests point one process at several sets of tables.
  const fullKey = `${tableName('tenantHosts')}\0${key}`;
  const now = nowMs();
  const hit = cache.get(fullKey);
  if (hit && hit.expiresAt > now) return hit.value;
  const value = await load();
  cache.delete(fullKey);
  cache.set(fullKey, { value, expiresAt: now + ttlMs });
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}

/** The tenant whose domain is `host`; any other host belongs to the default tenant. */
export async function resolveTenantByHost(host: string | undefined): Promise<Tenant> {
  const normalized = host ? normalizeHost(host) : '';
  const owner = normalized && normalized.length <= MAX_HOST_LENGTH ? await cached(`host#${normalized}`, () => getTenantByHost(normalized)) : undefined;
  return owner ?? (await cached('default', getDefaultTenant))!;
}

/** Forgets every cached tenant (tests). */
export function clearTenantCache(): void {
  cache.clear();
}
