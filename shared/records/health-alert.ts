/**
 * A source's `health_alert`: its complete link-health alert configuration. The stored object is what the
 * owner sent (validated, replaced whole on every update); defaults are applied when it is read, and `{}`
 * means alerting is off.
 */
import * as z from 'zod/mini';
import { privateAddressesAllowed } from '../fetch/allow-private';

export const HEALTH_ALERT_MAX_BYTES = 8 * 1024;

export const HEALTH_ALERT_DEFAULTS = { interval_minutes: 30, failure_threshold: 2, notify_recovery: true } as const;

const codePoints = (value: string): number => [...value].length;

/** https, or plain http too where private addresses are allowed (locally and in tests). */
function isWebhookUrl(value: string): boolean {
  if (codePoints(value) > 2048) return false;
  try {
    const url = new URL(value);
    const schemes = privateAddressesAllowed() ? ['https:', 'http:'] : ['https:'];
    return schemes.includes(url.protocol) && url.hostname.length > 0 && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export const healthAlertSchema = z
  .strictObject({
    enabled: z.optional(z.boolean()),
    // Stored as URL parsing gives it (`href`), like every stored URL.
    webhook_url: z.optional(z.pipe(z.string().check(z.refine(isWebhookUrl)), z.transform((s: string) => new URL(s).href))),
    interval_minutes: z.optional(z.int().check(z.minimum(5), z.maximum(1440))),
    failure_threshold: z.optional(z.int().check(z.minimum(1), z.maximum(10))),
    notify_recovery: z.optional(z.boolean()),
    secret: z.optional(z.string().check(z.refine((s) => codePoints(s) >= 16 && codePoints(s) <= 128))),
  })
  .check(z.refine((config) => config.enabled !== true || config.webhook_url !== undefined, { path: ['webhook_url'] }));

/** The configuration in force: defaults applied. */
export interface HealthAlertConfig {
  enabled: boolean;
  webhookUrl: string | undefined;
  intervalMinutes: number;
  failureThreshold: number;
  notifyRecovery: boolean;
  secret: string | undefined;
}

const OFF: HealthAlertConfig = {
  enabled: false,
  webhookUrl: undefined,
  intervalMinutes: HEALTH_ALERT_DEFAULTS.interval_minutes,
  failureThreshold: HEALTH_ALERT_DEFAULTS.failure_threshold,
  notifyRecovery: HEALTH_ALERT_DEFAULTS.notify_recovery,
  secret: undefined,
};

/**
 * The configuration a stored object stands for. Anything that does not match today's rules (an object
 * stored before they existed, say) counts as off until the owner replaces it.
 */
export function effectiveHealthAlert(stored: unknown): HealthAlertConfig {
  const parsed = healthAlertSchema.safeParse(stored ?? {});
  if (!parsed.success) return OFF;
  const c = parsed.data;
  return {
    enabled: c.enabled === true,
    webhookUrl: c.webhook_url,
    intervalMinutes: c.interval_minutes ?? HEALTH_ALERT_DEFAULTS.interval_minutes,
    failureThreshold: c.failure_threshold ?? HEALTH_ALERT_DEFAULTS.failure_threshold,
    notifyRecovery: c.notify_recovery ?? HEALTH_ALERT_DEFAULTS.notify_recovery,
    secret: c.secret,
  };
}
