import { createTenant as putTenant, getTenant, resolveTenantByHost } from '../../db/repositories/tenant-repository';
import { isLang, languages } from '../../i18n/languages';
import { randomId } from '../ids';
import { builtInDefaultTenant, DEFAULT_TENANT_ID, normalizeHost, type Tenant } from './tenant';

export class TenantRuleError extends Error {}

/**
 * `provisionApiKey`, when given, creates the tenant's key in the stack's usage plan once the checks passed
 * and before the tenant is stored, so a stored tenant never names a key the plan lacks.
 */
export async function createTenant(
  input: { name: string; domain?: string | undefined; lang?: string | undefined; tenantId?: string | undefined },
  now: number,
  provisionApiKey?: (tenantId: string) => Promise<string>,
): Promise<Tenant> {
  const lang = input.lang ?? 'zh';
  if (!isLang(lang)) throw new TenantRuleError(`--lang must be one of ${languages.join(', ')}`);
  if (input.domain) {
    const owner = await resolveTenantByHost(input.domain);
    if (owner.domain === normalizeHost(input.domain)) throw new TenantRuleError(`domain ${input.domain} already belongs to tenant ${owner.tenantId}`);
  }
  const tenantId = input.tenantId ?? randomId('t_');
  const apiKey = provisionApiKey ? await provisionApiKey(tenantId) : undefined;
  await putTenant({ tenantId, name: input.name, domain: input.domain, defaultLang: lang, createdAt: now, apiKey });
  return (await getTenant(tenantId))!;
}

/** A stored tenant, or the built-in default tenant, which works before an operator stores it. */
export async function requireTenant(tenantId: string): Promise<Tenant> {
  const tenant = await getTenant(tenantId);
  if (tenant) return tenant;
  if (tenantId === DEFAULT_TENANT_ID) return builtInDefaultTenant();
  throw new TenantRuleError(`unknown tenant ${tenantId}`);
}
