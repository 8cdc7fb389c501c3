import * as z from 'zod/mini';
import { DEVICE_ACTIONS, type DeviceAction, type DeviceSelector } from '../../shared/domain/devices/device-service';
import { DomainError } from '../../shared/domain/errors';
import type { RequestState } from '../../shared/http/request-state';
import { preprocess } from '../../shared/validation/fields';
import { parseSelector } from '../../shared/validation/device-selector';

const actionSchema = preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
  z.optional(z.union([z.pipe(z.literal(''), z.transform(() => 'toggle' as const)), z.enum(DEVICE_ACTIONS)])),
);

/** enable | disable | toggle, case-insensitive; absent or empty means toggle; anything else is code 22. */
export function parseAction(value: unknown): DeviceAction {
  const parsed = actionSchema.safeParse(value ?? undefined);
  if (!parsed.success) throw new DomainError('invalid_action', 'invalid_action', { fields: ['action'] });
  return parsed.data ?? 'toggle';
}

/** Which device (code 20 when neither kid nor udid), then what to do with it. */
export function parseRequest({ params }: Pick<RequestState, 'params'>): { selector: DeviceSelector; action: DeviceAction } {
  const selector = parseSelector(params);
  return { selector, action: parseAction(params.action) };
}
