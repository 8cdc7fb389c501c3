import { fallbackLanguage, type Lang } from '../i18n/languages';

export const DEFAULT_TENANT_ID = 'default';

/** Plan limits and policies a tenant can tune; every one has a default so a fresh tenant works. */
export interface TenantSettings {
  /** The plan's quota of published apps per source. */
  publishedAppsPerSource: number;
  /** The plan's quota of apps (drafts and published) per source. */
  appsPerSource: number;
  /** How long a download link of the feed stays valid, in seconds. */
  linkTtlSeconds: number;
  /** `max-age` of the feed read without a UDID, the one answer shared caches (a CDN) may hold, in seconds. */
  feedMaxAgeSeconds: number;
  /** Seconds after an add of a UDID during which another add of it needs `force` (the force-add period). */
  forceAddPeriodSeconds: number;
  /** Free re-issue window per warranty tier, in days from the original paid add (0 = no free re-issue). */
  warrantyWindowDays: Record<string, number>;
  /**
   * The password of every `.p12` this tenant's customers receive (the account's certificate is re-exported
   * under it; the account's own password is never handed out). `1` is the convention of the market.
   */
  p12Password: string;
  /** ISO 4217 code of the currency balances and prices are counted in (their cents); shown to users, never converted. */
  currency: string;
  /** The plan a new user may try once, free (a plan id of this tenant); '' = no trial. */
  trialPlanId: string;
  /** How long the trial runs, in days; 0 = no trial. */
  trialDays: number;
  /**
   * Whether the operator ever defined a plan here (set by the first `plan create`, never unset): then writes
   * need a subscription, and the tenant-wide limits are no longer a fallback.
   */
  plansOffered: boolean;
  /** Days a source's feed keeps serving after its owner's subscription ended, before it shows as suspended. */
  subscriptionGraceDays: number;
  /** Days before a hosting account's membership ends that its devices' `device.expiring` events are sent. */
  expiryNoticeDays: number;
  /** The largest IPA the service downloads to inspect, in bytes; a larger file cannot be published. */
  ipaMaxBytes: number;
  /** Misuse reports one source takes per hour (from all devices together), so spam cannot grow its monitor without limit. */
  reportsPerSourcePerHour: number;
  /**
   * Where a UDID capture may send the device besides the tenant's own hosts: the storefronts' return URLs
   * (udid-capture/return-targets.ts). Empty: only the tenant's own pages.
   */
  returnTargets: string[];
}

export const defaultTenantSettings: TenantSettings = {
  publishedAppsPerSource: 100,
  appsPerSource: 500,
  linkTtlSeconds: 3600,
  feedMaxAgeSeconds: 60,
  forceAddPeriodSeconds: 24 * 60 * 60,
  warrantyWindowDays: { '0': 0, '1': 40, '2': 180, '3': 330, '4': 0, '6': 365 },
  p12Password: '1',
  currency: 'CNY',
  trialPlanId: '',
  trialDays: 0,
  plansOffered: false,
  subscriptionGraceDays: 7,
  expiryNoticeDays: 7,
  ipaMaxBytes: 2 * 1024 * 1024 * 1024,
  reportsPerSourcePerHour: 100,
  returnTargets: [],
};

/** 1–64 printable ASCII characters (space to `~`), what every signing tool and iOS accept as a .p12 password. */
export function p12PasswordProblem(password: string): string | undefined {
  if (password.length === 0) return 'must not be empty';
  if (password.length > 64) return 'must be at most 64 characters';
  if (!/^[\x20-\x7e]+$/.test(password)) return 'must be printable ASCII characters (space to ~)';
  if (password.trim() !== password) return 'must not start or end with a space';
  return undefined;
}

export interface Tenant {
  tenantId: string;
  name: string;
  /** Host names (lower case, no port) whose requests belong to this tenant. */
  domain: string | undefined;
  defaultLang: Lang;
  settings: TenantSettings;
  /**
   * The value of the tenant's API key in the stack's usage plan (its edge throttle bucket); absent for tenants
   * created without a stack, whose requests count against the default tenant's key.
   */
  apiKey?: string | undefined;
  /**
   * Set when the request came for an agent's storefront domain (shared/records/storefront.ts): the agent whose
   * brand the pages show there. The tenant is still the agent's tenant in every other respect.
   */
  storefrontOwner?: string | undefined;
}

/** The tenant every unmapped host belongs to, used as-is until an operator stores one. */
export function builtInDefaultTenant(): Tenant {
  return { tenantId: DEFAULT_TENANT_ID, name: 'Default', domain: undefined, defaultLang: fallbackLanguage, settings: { ...defaultTenantSettings } };
}

/** `Example.COM:443` → `example.com`. */
export function normalizeHost(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  return trimmed.replace(/:\d+$/, '');
}

/** Bounds of `linkTtlSeconds`: a minute (a client must manage to start the download) to a day. */
export const LINK_TTL_BOUNDS = { min: 60, max: 86_400 } as const;

/** Three capital letters, as ISO 4217 writes a currency (`CNY`, `USD`). */
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
/** `expiryNoticeDays` is 1 to this. */
export const EXPIRY_NOTICE_MAX_DAYS = 60;
/** Bounds of `ipaMaxBytes`: 1 MiB to 4 GiB (the background inspector's disk holds that, and no IPA is larger). */
export const IPA_MAX_BYTES_BOUNDS = { min: 1024 * 1024, max: 4 * 1024 * 1024 * 1024 } as const;
/** Bounds of `reportsPerSourcePerHour`: at least one report an hour, at most what a monitor page can follow. */
export const REPORTS_PER_HOUR_BOUNDS = { min: 1, max: 10_000 } as const;
