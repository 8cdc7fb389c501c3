import * as z from 'zod/mini';
import { healthAlertField } from '../../shared/domain/link-health/health-alert';
import { bit, httpUrl, text } from '../../shared/validation/fields';

export const updateSourceShape = {
  name: text(100, { min: 1 }).optional(),
  message: text(5000).optional(),
  identifier: text(100, { min: 1 }).optional(),
  source_icon: httpUrl().optional(),
  pay_url: httpUrl().optional(),
  encrypt_enabled: bit().optional(),
  open_black: bit().optional(),
  open_black2: bit().optional(),
  health_alert: z.optional(healthAlertField()),
};

/** Present in the response or set by the service, never by the caller. */
export const readOnlySourceFields = ['source_id', 'source_url', 'app_count'] as const;
