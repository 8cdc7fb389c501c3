/** The settings of a source as the owner sets them: the update route's fields, and the create route's. */
import * as z from 'zod/mini';
import { HEALTH_ALERT_MAX_BYTES, healthAlertSchema } from '../records/health-alert';
import { DEVICE_PROOF } from '../records/source';
import { bit, fromJsonText, httpUrl, preprocess, text, withinJsonBytes } from './fields';
import { appText, tintColor } from './app-fields';
import { featuredAppsField } from './source-format-fields';
import { SOURCE_FORMAT_LIMITS } from '../records/source-format';

/** `health_alert`: the whole configuration, as an object or a JSON-encoded string holding one, at most 8 KB serialized. */
export const healthAlertField = () => preprocess(fromJsonText, healthAlertSchema.check(withinJsonBytes(HEALTH_ALERT_MAX_BYTES)));

/** An absolute http(s) URL, or '' to clear it (the feed then leaves the key out). */
const optionalUrl = () => z.union([z.literal(''), httpUrl()]);

export const updateSourceShape = {
  name: z.optional(text(100, { min: 1 })),
  message: z.optional(text(5000)),
  identifier: z.optional(text(100, { min: 1 })),
  source_icon: z.optional(httpUrl()),
  pay_url: z.optional(httpUrl()),
  encrypt_enabled: z.optional(bit()),
  open_black: z.optional(bit()),
  open_black2: z.optional(bit()),
  health_alert: z.optional(healthAlertField()),
  // The richer source format (AltStore/SideStore, Feather): presentation only; '' or [] clears a setting.
  subtitle: z.optional(appText(SOURCE_FORMAT_LIMITS.subtitle)),
  description: z.optional(appText(SOURCE_FORMAT_LIMITS.description, { multiline: true })),
  header_url: z.optional(optionalUrl()),
  website: z.optional(optionalUrl()),
  tint_color: z.optional(tintColor()),
  featured_apps: z.optional(featuredAppsField()),
  device_proof: z.optional(z.enum(DEVICE_PROOF)),
};
