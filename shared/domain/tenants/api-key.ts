/**
 * Which usage-plan API key a request counts against: its tenant's, chosen by `Host`. Hosts no tenant owns,
 * and tenants created without a stack (no key of their own), count against the default tenant's key, which
 * the stack creates and hands to the authorizer in DEFAULT_TENANT_API_KEY.
 */
import { config } from '../../config';
import { resolveTenantByHost } from './host-tenant';

/** The variable the stack sets (shared/config.ts reads it). */
export const DEFAULT_API_KEY_ENV = 'DEFAULT_TENANT_API_KEY';

export async function apiKeyForHost(host: string | undefined): Promise<{ tenantId: string; apiKey: string }> {
  const tenant = await resolveTenantByHost(host);
  const apiKey = tenant.apiKey ?? config().defaultTenantApiKey;
  // Without a key API Gateway would refuse every request with 403; fail loudly (answered 500, never cached).
  if (!apiKey) throw new Error(`${DEFAULT_API_KEY_ENV} is not set`);
  return { tenantId: tenant.tenantId, apiKey };
}
