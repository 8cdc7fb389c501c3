import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { createTenant as putTenant, getTenant, getTenantByHost } from '../../db/repositories/tenant-repository';
import { isLang, languages } from '../../i18n/languages';
import { randomId } from '../ids';
import { builtInDefaultTenant, DEFAULT_TENANT_ID, normalizeHost, type Tenant } from './tenant';

export class TenantRuleError extends Error {}

export async function createTenant(input: { name: string; domain?: string | undefined; lang?: string | undefined; tenantId?: string | undefined }, now: number): Promise<Tenant> {
  const lang = input.lang ?? 'zh';
  if (!isLang(lang)) throw new TenantRuleError(`--lang must be one of ${languages.join(', ')}`);
  const domainTaken = (owner: string) => new TenantRuleError(`domain ${input.domain} already belongs to tenant ${owner}`);
  if (input.domain) {
    const owner = await getTenantByHost(normalizeHost(input.domain));
    if (owner) throw domainTaken(owner.tenantId);
  }
  const tenantId = input.tenantId ?? randomId('t_');
  try {
    await putTenant({ tenantId, name: input.name, domain: input.domain, defaultLang: lang, createdAt: now });
  } catch (error) {
    // Another operator took the domain (or the id) between the check and the write.
    if (error instanceof TransactionCanceledException && input.domain) throw domainTaken((await getTenantByHost(normalizeHost(input.domain)))?.tenantId ?? 'another');
    throw error;
  }
  return (await getTenant(tenantId))!;
}

/** A stored tenant, or the built-in default tenant, which works before an operator stores it. */
export async function requireTenant(tenantId: string): Promise<Tenant> {
  const tenant = await getTenant(tenantId);
  if (tenant) return tenant;
  if (tenantId === DEFAULT_TENANT_ID) return builtInDefaultTenant();
  throw new TenantRuleError(`unknown tenant ${tenantId}`);
}
