import { createTenant as putTenant, getTenant, getTenantByHost, updateTenantSettings } from '../../db/repositories/tenant-repository';
import { prepareTenantCustomerP12s } from '../accounts/customer-p12';
import { fallbackLanguage, isLang, languages } from '../../i18n/languages';
import { RuleError } from '../errors';
import { randomId } from '../../ids';
import { builtInDefaultTenant, DEFAULT_TENANT_ID, normalizeHost, type Tenant } from '../../records/tenant';

/**
 * `provisionApiKey`, when given, creates the tenant's key in the stack's usage plan once the checks passed
 * and before the tenant is stored, so a stored tenant never names a key the plan lacks.
 */
export async function createTenant(
  input: { name: string; domain?: string | undefined; lang?: string | undefined; tenantId?: string | undefined },
  now: number,
  provisionApiKey?: (tenantId: string) => Promise<string>,
): Promise<Tenant> {
  const lang = input.lang ?? fallbackLanguage;
  if (!isLang(lang)) throw new RuleError('lang_unsupported', `the language must be one of ${languages.join(', ')}`);
  const domainTaken = (owner: string) => new RuleError('domain_taken', `domain ${input.domain} already belongs to tenant ${owner}`);
  if (input.domain) {
    const owner = await getTenantByHost(normalizeHost(input.domain));
    if (owner) throw domainTaken(owner.tenantId);
  }
  const tenantId = input.tenantId ?? randomId('t_');
  const apiKey = provisionApiKey ? await provisionApiKey(tenantId) : undefined;
  // Refused only with a domain: another operator took it (or the id) between the check and the write.
  if (!(await putTenant({ tenantId, name: input.name, domain: input.domain, defaultLang: lang, createdAt: now, apiKey })) && input.domain) {
    throw domainTaken((await getTenantByHost(normalizeHost(input.domain)))?.tenantId ?? 'another');
  }
  return (await getTenant(tenantId))!;
}

/** A stored tenant, or the built-in default tenant, which works before an operator stores it. */
export async function requireTenant(tenantId: string): Promise<Tenant> {
  const tenant = await getTenant(tenantId);
  if (tenant) return tenant;
  if (tenantId === DEFAULT_TENANT_ID) return builtInDefaultTenant();
  throw new RuleError('tenant_not_found', `unknown tenant ${tenantId}`);
}

/**
 * Changes a tenant's settings the way operators do. A new p12 password is prepared on every account of the
 * tenant first (keeping the old password's copy, which running functions use until their cached tenant
 * expires), then stored: no add ever finds its account without a `.p12` for the password it knows.
 */
export async function changeTenantSettings(tenantId: string, changes: { settings?: Record<string, unknown>; defaultLang?: string }): Promise<Tenant> {
  const next = changes.settings?.p12Password;
  if (typeof next === 'string') {
    const current = (await requireTenant(tenantId)).settings.p12Password;
    if (next !== current) await prepareTenantCustomerP12s(tenantId, [next, current]);
  }
  return updateTenantSettings(tenantId, changes);
}
