import type { Lang } from '../../i18n/languages';

export const DEFAULT_TENANT_ID = 'default';

/** Plan limits and policies a tenant can tune; every one has a default so a fresh tenant works. */
export interface TenantSettings {
  /** The plan's quota of published apps per source. */
  publishedAppsPerSource: number;
  /** Seconds after an add of a UDID during which another add of it needs `force` (DESIGN §2 step 3). */
  forceAddPeriodSeconds: number;
  /** Free re-issue window per warranty tier, in days from the original paid add (0 = no free re-issue). */
  warrantyWindowDays: Record<string, number>;
}

export const defaultTenantSettings: TenantSettings = {
  publishedAppsPerSource: 100,
  forceAddPeriodSeconds: 24 * 60 * 60,
  warrantyWindowDays: { '0': 0, '1': 40, '2': 180, '3': 330, '4': 0, '6': 365 },
};

export interface Tenant {
  tenantId: string;
  name: string;
  /** Host names (lower case, no port) whose requests belong to this tenant. */
  domain: string | undefined;
  defaultLang: Lang;
  settings: TenantSettings;
}

/** The tenant every unmapped host belongs to, used as-is until an operator stores one. */
export function builtInDefaultTenant(): Tenant {
  return { tenantId: DEFAULT_TENANT_ID, name: 'Default', domain: undefined, defaultLang: 'zh', settings: { ...defaultTenantSettings } };
}

/** `Example.COM:443` → `example.com`. */
export function normalizeHost(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  return trimmed.replace(/:\d+$/, '');
}
