import * as z from 'zod/mini';
import { healthAlertField } from '../../shared/domain/link-health/health-alert';
import { bit, httpUrl, text } from '../../shared/validation/fields';

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
};

/** Present in the response or set by the service, never by the caller. */
export const readOnlySourceFields = ['source_id', 'source_url', 'app_count'] as const;
