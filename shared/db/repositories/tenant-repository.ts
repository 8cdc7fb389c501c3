import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../tables';
import { builtInDefaultTenant, DEFAULT_TENANT_ID, defaultTenantSettings, normalizeHost, type Tenant } from '../../domain/tenants/tenant';
import { isLang } from '../../i18n/languages';

interface TenantItem {
  tenant_id: string;
  name: string;
  domain?: string;
  default_lang?: string;
  settings?: Record<string, unknown>;
  created_at?: number;
  api_key?: string;
}

function fromItem(item: TenantItem): Tenant {
  return {
    tenantId: item.tenant_id,
    name: item.name,
    domain: item.domain,
    defaultLang: isLang(item.default_lang) ? item.default_lang : 'zh',
    settings: { ...defaultTenantSettings, ...(item.settings ?? {}) },
    ...(item.api_key ? { apiKey: item.api_key } : {}),
  };
}

export async function getTenant(tenantId: string): Promise<Tenant | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('tenants'), Key: { tenant_id: tenantId } }));
  return out.Item ? fromItem(out.Item as TenantItem) : undefined;
}

/** The tenant whose domain is `host`; any unmapped host belongs to the default tenant. */
export async function resolveTenantByHost(host: string | undefined): Promise<Tenant> {
  if (host) {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName('tenants'),
        IndexName: 'by-domain',
        KeyConditionExpression: '#d = :d',
        ExpressionAttributeNames: { '#d': 'domain' },
        ExpressionAttributeValues: { ':d': normalizeHost(host) },
        Limit: 1,
      }),
    );
    const item = out.Items?.[0];
    if (item) return fromItem(item as TenantItem);
  }
  return (await getTenant(DEFAULT_TENANT_ID)) ?? builtInDefaultTenant();
}

export async function createTenant(tenant: {
  tenantId: string;
  name: string;
  domain?: string | undefined;
  defaultLang: string;
  createdAt: number;
  apiKey?: string | undefined;
}): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName('tenants'),
      Item: {
        tenant_id: tenant.tenantId,
        name: tenant.name,
        ...(tenant.domain ? { domain: normalizeHost(tenant.domain) } : {}),
        default_lang: tenant.defaultLang,
        settings: {},
        created_at: tenant.createdAt,
        ...(tenant.apiKey ? { api_key: tenant.apiKey } : {}),
      },
      ConditionExpression: 'attribute_not_exists(tenant_id)',
    }),
  );
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
  return fromItem(out.Attributes as TenantItem);
}
