import * as z from 'zod/mini';
import { getUser } from '../../../shared/db/repositories/user-repository';
import { ACCOUNT_MODES } from '../../../shared/domain/accounts/account';
import { PRICED_CLASSES, priceItem, setPrice, tenantScope, userScope } from '../../../shared/domain/pricing/prices';
import { isWarrantyTier, tierAllowedIn, WARRANTY_TIERS } from '../../../shared/domain/pricing/warranty';
import { DEFAULT_TENANT_ID, LINK_TTL_BOUNDS, p12PasswordProblem } from '../../../shared/domain/tenants/tenant';
import { FEED_MAX_AGE_BOUNDS } from '../../../shared/domain/sources/feed-caching';
import { changeTenantSettings, requireTenant } from '../../../shared/domain/tenants/tenant-service';
import { isLang, languages } from '../../../shared/i18n/languages';
import { CliError, flagInt, flagText, parseFlags, type Command } from '../cli-types';

/** `1=40,2=180`: free re-issue window in days per warranty tier. */
const windowsFlag = () =>
  z.pipe(
    z.pipe(
      flagText(100).check(z.regex(/^\d=\d+(,\d=\d+)*$/, 'must look like 1=40,2=180 (tier=days)')),
      z.transform((s: string) => Object.fromEntries(s.split(',').map((pair) => pair.split('=') as [string, string]).map(([tier, days]) => [tier, Number(days)]))),
    ),
    z.record(z.string(), z.number()).check(z.refine((w) => Object.keys(w).every((tier) => isWarrantyTier(Number(tier))), `tiers are ${WARRANTY_TIERS.join(', ')}`)),
  );

/** The customers' .p12 password, taken as typed (no trimming: every character is part of the password). */
const p12PasswordFlag = () =>
  z.string({ error: 'requires a value (1–64 printable characters)' }).check(
    z.superRefine((password: string, ctx) => {
      const problem = p12PasswordProblem(password);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );

export const tenantSettingsCommands: Record<string, Command> = {
  /** A tenant price, or with --user that user's personal price (used where it is lower). Cents. */
  'tenant set-price': async (flags) => {
    const f = parseFlags(flags, {
      tenant: z.optional(flagText()),
      user: z.optional(flagText()),
      mode: z.enum(ACCOUNT_MODES),
      warranty: flagInt(),
      'device-type': z._default(z.enum(PRICED_CLASSES), 'iphone'),
      price: flagInt(),
    });
    if (!tierAllowedIn(f.mode, f.warranty) || !isWarrantyTier(f.warranty)) throw new CliError(`--warranty ${f.warranty} is not sold in ${f.mode} mode`);
    let scope: string;
    if (f.user) {
      const user = await getUser(f.user);
      if (!user) throw new CliError(`unknown user ${f.user}`);
      if (f.tenant && f.tenant !== user.tenantId) throw new CliError(`user ${user.userId} belongs to tenant ${user.tenantId}`);
      scope = userScope(user.userId);
    } else {
      scope = tenantScope((await requireTenant(f.tenant ?? DEFAULT_TENANT_ID)).tenantId);
    }
    const item = priceItem(f.mode, f.warranty, f['device-type']);
    await setPrice(scope, item, f.price);
    return { scope, mode: f.mode, warranty: f.warranty, device_type: f['device-type'], price: f.price };
  },

  /** The force-add period, warranty windows, customers' .p12 password, download links' lifetime and default language of a tenant. */
  'tenant set': async (flags) => {
    const f = parseFlags(flags, {
      tenant: z.optional(flagText()),
      'force-period-hours': z.optional(flagInt()),
      'warranty-windows': z.optional(windowsFlag()),
      lang: z.optional(flagText(10)),
      'p12-password': z.optional(p12PasswordFlag()),
      'link-ttl-seconds': z.optional(
        z.pipe(flagInt({ min: LINK_TTL_BOUNDS.min }), z.number().check(z.refine((n) => n <= LINK_TTL_BOUNDS.max, `must be at most ${LINK_TTL_BOUNDS.max}`))),
      ),
      'feed-max-age-seconds': z.optional(
        z.pipe(flagInt({ min: FEED_MAX_AGE_BOUNDS.min }), z.number().check(z.refine((n) => n <= FEED_MAX_AGE_BOUNDS.max, `must be at most ${FEED_MAX_AGE_BOUNDS.max}`))),
      ),
    });
    if (f['force-period-hours'] === undefined && !f['warranty-windows'] && !f.lang && f['p12-password'] === undefined && f['link-ttl-seconds'] === undefined && f['feed-max-age-seconds'] === undefined) {
      throw new CliError('nothing to set: pass --force-period-hours, --warranty-windows, --p12-password, --link-ttl-seconds, --feed-max-age-seconds or --lang');
    }
    if (f.lang && !isLang(f.lang)) throw new CliError(`--lang must be one of ${languages.join(', ')}`);
    const tenant = await requireTenant(f.tenant ?? DEFAULT_TENANT_ID);
    const settings: Record<string, unknown> = {};
    if (f['force-period-hours'] !== undefined) settings.forceAddPeriodSeconds = f['force-period-hours'] * 3600;
    if (f['warranty-windows']) settings.warrantyWindowDays = { ...tenant.settings.warrantyWindowDays, ...f['warranty-windows'] };
    if (f['p12-password'] !== undefined) settings.p12Password = f['p12-password'];
    if (f['link-ttl-seconds'] !== undefined) settings.linkTtlSeconds = f['link-ttl-seconds'];
    if (f['feed-max-age-seconds'] !== undefined) settings.feedMaxAgeSeconds = f['feed-max-age-seconds'];
    const updated = await changeTenantSettings(tenant.tenantId, { settings, ...(f.lang ? { defaultLang: f.lang } : {}) });
    return {
      tenant_id: updated.tenantId,
      default_lang: updated.defaultLang,
      force_period_hours: updated.settings.forceAddPeriodSeconds / 3600,
      warranty_windows: updated.settings.warrantyWindowDays,
      p12_password: updated.settings.p12Password,
      link_ttl_seconds: updated.settings.linkTtlSeconds,
      feed_max_age_seconds: updated.settings.feedMaxAgeSeconds,
    };
  },
};
