import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { transactWrite } from '../transactions';
import { builtInDefaultTenant, DEFAULT_TENANT_ID, defaultTenantSettings, normalizeHost, type Tenant } from '../../records/tenant';
import { fallbackLanguage, isLang } from '../../i18n/languages';
import { snakeCaseFields } from '../../snake-case-fields';

interface TenantItem {
  tenant_id: string;
  name: string;
  domain?: string;
  default_lang?: string;
  settings?: Record<string, unknown>;
  created_at?: number;
  api_key?: string;
}

const stored = snakeCaseFields<Tenant>()(['tenantId', 'name', 'domain', 'apiKey']);

function tenantFromItem(item: TenantItem): Tenant {
  return {
    ...stored.fromSnake(item),
    defaultLang: isLang(item.default_lang) ? item.default_lang : fallbackLanguage,
    settings: { ...defaultTenantSettings, ...(item.settings ?? {}) },
  };
}

export async function getTenant(tenantId: string): Promise<Tenant | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('tenants'), Key: { tenant_id: tenantId } }));
  return out.Item ? tenantFromItem(out.Item as TenantItem) : undefined;
}

/**
 * The tenant that owns `host` (normalized), from its copy in `tenantHosts`: one GetItem. Undefined when no
 * tenant owns the host.
 */
export async function getTenantByHost(host: string): Promise<Tenant | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('tenantHosts'), Key: { host: normalizeHost(host) } }));
  if (!out.Item) return undefined;
  const owner = (out.Item as { storefront_owner?: string }).storefront_owner;
  if (!owner) return tenantFromItem(out.Item as TenantItem);
  // An agent's storefront host names its tenant, not a copy of it (a tenant's change reaches it at once): the
  // tenant as its own, with the host as its domain (links stay on the storefront's host) and the agent.
  const tenant = await getTenant(String(out.Item.tenant_id));
  return tenant ? { ...tenant, domain: normalizeHost(host), storefrontOwner: owner } : undefined;
}

/** The stored default tenant, or the built-in one until an operator stores it. */
export async function getDefaultTenant(): Promise<Tenant> {
  return (await getTenant(DEFAULT_TENANT_ID)) ?? builtInDefaultTenant();
}

/** The copy of a tenant item kept under its host. */
function hostPut(item: TenantItem & { domain: string }) {
  return { TableName: tableName('tenantHosts'), Item: { ...item, host: item.domain } };
}

/**
 * Stores a new tenant and, when it has a domain, its host copy in one transaction: false when that was
 * cancelled (another tenant took the domain, or the id, since the caller checked), and nothing is stored.
 */
export async function createTenant(tenant: { tenantId: string; name: string; domain?: string | undefined; defaultLang: string; createdAt: number; apiKey?: string | undefined }): Promise<boolean> {
  const item: TenantItem = {
    tenant_id: tenant.tenantId,
    name: tenant.name,
    ...(tenant.domain ? { domain: normalizeHost(tenant.domain) } : {}),
    default_lang: tenant.defaultLang,
    settings: {},
    created_at: tenant.createdAt,
    ...(tenant.apiKey ? { api_key: tenant.apiKey } : {}),
  };
  const put = { Put: { TableName: tableName('tenants'), Item: item, ConditionExpression: 'attribute_not_exists(tenant_id)' } };
  if (!item.domain) {
    await documentClient().send(new PutCommand(put.Put));
    return true;
  }
  const outcome = await transactWrite([put, { Put: { ...hostPut({ ...item, domain: item.domain }), ConditionExpression: 'attribute_not_exists(host)' } }], { conflicts: 'report' });
  return outcome.ok;
}

/** Writes the host copy of a tenant item again (after a change, or to backfill it); no-op without a domain. */
export async function putTenantHostCopy(item: Record<string, unknown>): Promise<boolean> {
  const tenant = item as unknown as TenantItem;
  if (!tenant.domain) return false;
  await documentClient().send(new PutCommand(hostPut({ ...tenant, domain: tenant.domain })));
  return true;
}

/** Merges `settings` into the tenant's stored settings (creating the default tenant's item if needed). */
export async function updateTenantSettings(tenantId: string, changes: { settings?: Record<string, unknown>; defaultLang?: string }): Promise<Tenant> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  if (changes.defaultLang) {
    sets.push('default_lang = :lang');
    values[':lang'] = changes.defaultLang;
  }
  const current = (await getTenant(tenantId)) ?? (tenantId === DEFAULT_TENANT_ID ? builtInDefaultTenant() : undefined);
  if (!current) throw new Error(`Unknown tenant ${tenantId}`);
  if (changes.settings) {
    sets.push('#s = :s');
    names['#s'] = 'settings';
    values[':s'] = { ...current.settings, ...changes.settings };
  }
  sets.push('#n = if_not_exists(#n, :name)');
  names['#n'] = 'name';
  values[':name'] = current.name;
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName('tenants'),
      Key: { tenant_id: tenantId },
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  // Running functions see the host copy once their cached tenant expires (TENANT_CACHE_SECONDS).
  await putTenantHostCopy(out.Attributes!);
  return tenantFromItem(out.Attributes as TenantItem);
}
