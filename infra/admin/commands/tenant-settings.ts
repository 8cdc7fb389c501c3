import * as z from 'zod/mini';
import { getUser } from '../../../shared/db/repositories/user-repository';
import { ACCOUNT_MODES } from '../../../shared/records/account';
import { PRICED_CLASSES, priceItem, setPrice, tenantScope, userScope } from '../../../shared/domain/pricing/prices';
import { isWarrantyTier, tierAllowedIn, WARRANTY_TIERS } from '../../../shared/domain/pricing/warranty';
import { CURRENCY_PATTERN, DEFAULT_TENANT_ID, EXPIRY_NOTICE_MAX_DAYS, IPA_MAX_BYTES_BOUNDS, LINK_TTL_BOUNDS, p12PasswordProblem, REPORTS_PER_HOUR_BOUNDS } from '../../../shared/records/tenant';
import { FEED_MAX_AGE_BOUNDS } from '../../../shared/domain/sources/feed-caching';
import { changeTenantSettings, requireTenant } from '../../../shared/domain/tenants/tenant-service';
import { requirePlan } from '../../../shared/domain/subscriptions/plan-service';
import { isLang, languages } from '../../../shared/i18n/languages';
import { CliError, flagInt, flagText, parseFlags, type Command } from '../cli-types';
import { profileSignerView, removeProfileSigner, setProfileSigner, type SignerView } from '../../../shared/domain/udid-capture/profile-signer';
import { readFileSync } from 'node:fs';
import { bandsProblem, MAX_BANDS } from '../../../shared/records/price-band';
import { normalizedReturnTarget, returnTargetProblem, RETURN_TARGETS_MAX } from '../../../shared/domain/udid-capture/return-targets';

/**
 * The identity that signs the tenant's UDID profiles (iOS then shows them "Verified"): a .p12 with its
 * password, checked, then sealed like account secrets. Without flags: what is configured now.
 */
async function applyProfileSigner(tenantId: string, file: string | undefined, password: string | undefined, remove: boolean): Promise<SignerView | null> {
  if (remove && file !== undefined) throw new CliError('pass --profile-signer-p12 or --profile-signer-remove, not both');
  if (remove) {
    await removeProfileSigner(tenantId);
    return null;
  }
  if (file === undefined) {
    if (password !== undefined) throw new CliError('--profile-signer-password goes with --profile-signer-p12');
    return profileSignerView(tenantId);
  }
  if (password === undefined) throw new CliError('--profile-signer-p12 needs --profile-signer-password');
  let p12: Buffer;
  try {
    p12 = readFileSync(file);
  } catch (error) {
    throw new CliError(`cannot read the .p12 at ${file}: ${(error as Error).message}`);
  }
  try {
    return await setProfileSigner(tenantId, p12.toString('base64'), password, Math.floor(Date.now() / 1000));
  } catch (error) {
    throw new CliError(`--profile-signer-p12: ${(error as Error).message}`);
  }
}

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

/** `https://a.example/udid,https://b.example/done` (or `none`): the storefronts' return URLs, replacing the list. */
const returnTargetsFlag = () =>
  z.pipe(
    z.pipe(flagText(RETURN_TARGETS_MAX * 2050), z.transform((s: string) => (s === 'none' ? [] : s.split(',').map((t) => t.trim())))),
    z.array(z.string()).check(
      z.superRefine((targets: string[], ctx) => {
        if (targets.length > RETURN_TARGETS_MAX) ctx.addIssue({ code: 'custom', message: `at most ${RETURN_TARGETS_MAX} targets` });
        for (const target of targets) {
          const problem = returnTargetProblem(target);
          if (problem) ctx.addIssue({ code: 'custom', message: `${target || '(empty)'} ${problem}` });
        }
      }),
    ),
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
      bands: z.optional(flagText()),
    });
    if (!tierAllowedIn(f.mode, f.warranty) || !isWarrantyTier(f.warranty)) throw new CliError(`--warranty ${f.warranty} is not sold in ${f.mode} mode`);
    // `--bands 10:900,50:800`: from the 10th add of the month 900, from the 50th 800 (records/price-band.ts).
    const bands = (f.bands ?? '').split(',').filter((b) => b.trim() !== '').map((b) => {
      const m = /^\s*(\d+):(\d+)\s*$/.exec(b);
      if (!m) throw new CliError(`--bands takes from:cents pairs separated by commas (10:900,50:800), not ${b}`);
      return { from: Number(m[1]), price: Number(m[2]) };
    });
    if (bands.length > MAX_BANDS) throw new CliError(`--bands takes at most ${MAX_BANDS} bands`);
    const problem = bandsProblem(f.price, bands);
    if (problem) throw new CliError(problem.problem === 'order' ? `band ${problem.index + 1} must start after the one before it, from the 2nd add on` : `band ${problem.index + 1} must cost less than the price before it`);
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
    await setPrice(scope, item, f.price, bands);
    return { scope, mode: f.mode, warranty: f.warranty, device_type: f['device-type'], price: f.price, bands };
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
      currency: z.optional(flagText(3).check(z.regex(CURRENCY_PATTERN, 'must be an ISO 4217 code such as CNY or USD'))),
      'trial-plan': z.optional(flagText(64)),
      'trial-days': z.optional(z.pipe(flagInt(), z.number().check(z.refine((n) => n <= 365, 'must be at most 365')))),
      'grace-days': z.optional(z.pipe(flagInt(), z.number().check(z.refine((n) => n <= 365, 'must be at most 365')))),
      'expiry-notice-days': z.optional(z.pipe(flagInt({ min: 1 }), z.number().check(z.refine((n) => n <= EXPIRY_NOTICE_MAX_DAYS, `must be at most ${EXPIRY_NOTICE_MAX_DAYS}`)))),
      'profile-signer-p12': z.optional(flagText(1000)),
      'profile-signer-password': z.optional(z.string()),
      'profile-signer-remove': z.optional(z.literal(true)),
      'ipa-max-bytes': z.optional(
        z.pipe(flagInt({ min: IPA_MAX_BYTES_BOUNDS.min }), z.number().check(z.refine((n) => n <= IPA_MAX_BYTES_BOUNDS.max, `must be at most ${IPA_MAX_BYTES_BOUNDS.max}`))),
      ),
      'feed-max-age-seconds': z.optional(
        z.pipe(flagInt({ min: FEED_MAX_AGE_BOUNDS.min }), z.number().check(z.refine((n) => n <= FEED_MAX_AGE_BOUNDS.max, `must be at most ${FEED_MAX_AGE_BOUNDS.max}`))),
      ),
      'reports-per-hour': z.optional(
        z.pipe(flagInt({ min: REPORTS_PER_HOUR_BOUNDS.min }), z.number().check(z.refine((n) => n <= REPORTS_PER_HOUR_BOUNDS.max, `must be at most ${REPORTS_PER_HOUR_BOUNDS.max}`))),
      ),
      'return-targets': z.optional(returnTargetsFlag()),
    });
    // Every flag but --tenant sets something: without one there is nothing to do.
    const given = Object.entries(f).filter(([name, value]) => name !== 'tenant' && value !== undefined);
    if (given.length === 0) throw new CliError('nothing to set: pass at least one setting (see the README\'s `tenant set`)');
    if (f.lang && !isLang(f.lang)) throw new CliError(`--lang must be one of ${languages.join(', ')}`);
    const tenant = await requireTenant(f.tenant ?? DEFAULT_TENANT_ID);
    const profileSigner = await applyProfileSigner(tenant.tenantId, f['profile-signer-p12'], f['profile-signer-password'], f['profile-signer-remove'] === true);
    const settings: Record<string, unknown> = {};
    if (f['force-period-hours'] !== undefined) settings.forceAddPeriodSeconds = f['force-period-hours'] * 3600;
    if (f['warranty-windows']) settings.warrantyWindowDays = { ...tenant.settings.warrantyWindowDays, ...f['warranty-windows'] };
    if (f['p12-password'] !== undefined) settings.p12Password = f['p12-password'];
    if (f['link-ttl-seconds'] !== undefined) settings.linkTtlSeconds = f['link-ttl-seconds'];
    if (f.currency !== undefined) settings.currency = f.currency;
    // The trial: a plan of this tenant, given once per user for --trial-days (0 takes the trial away).
    if (f['trial-plan'] !== undefined) settings.trialPlanId = (await requirePlan(tenant.tenantId, f['trial-plan'])).planId;
    if (f['trial-days'] !== undefined) settings.trialDays = f['trial-days'];
    if (f['grace-days'] !== undefined) settings.subscriptionGraceDays = f['grace-days'];
    if (f['expiry-notice-days'] !== undefined) settings.expiryNoticeDays = f['expiry-notice-days'];
    if (f['ipa-max-bytes'] !== undefined) settings.ipaMaxBytes = f['ipa-max-bytes'];
    if (f['feed-max-age-seconds'] !== undefined) settings.feedMaxAgeSeconds = f['feed-max-age-seconds'];
    if (f['reports-per-hour'] !== undefined) settings.reportsPerSourcePerHour = f['reports-per-hour'];
    if (f['return-targets'] !== undefined) settings.returnTargets = [...new Set(f['return-targets'].map(normalizedReturnTarget))];
    const updated = Object.keys(settings).length || f.lang ? await changeTenantSettings(tenant.tenantId, { settings, ...(f.lang ? { defaultLang: f.lang } : {}) }) : tenant;
    return {
      tenant_id: updated.tenantId,
      default_lang: updated.defaultLang,
      force_period_hours: updated.settings.forceAddPeriodSeconds / 3600,
      warranty_windows: updated.settings.warrantyWindowDays,
      p12_password: updated.settings.p12Password,
      link_ttl_seconds: updated.settings.linkTtlSeconds,
      currency: updated.settings.currency,
      trial_plan: updated.settings.trialPlanId || null,
      trial_days: updated.settings.trialDays,
      grace_days: updated.settings.subscriptionGraceDays,
      expiry_notice_days: updated.settings.expiryNoticeDays,
      profile_signer: profileSigner,
      ipa_max_bytes: updated.settings.ipaMaxBytes,
      feed_max_age_seconds: updated.settings.feedMaxAgeSeconds,
      reports_per_hour: updated.settings.reportsPerSourcePerHour,
      return_targets: updated.settings.returnTargets,
    };
  },
};
