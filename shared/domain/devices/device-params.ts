/**
 * The inputs of the device endpoints, validated with zod: which device (`kid` and/or `udid`) and, for the
 * status endpoint, which `action`. Legacy clients send extra parameters, so unknown ones are ignored here.
 */
import * as z from 'zod/mini';
import { preprocess } from '../../validation/fields';
import { DomainError } from '../errors';

export const DEVICE_ACTIONS = ['enable', 'disable', 'toggle'] as const;
export type DeviceAction = (typeof DEVICE_ACTIONS)[number];

/** kid and/or udid; at least one is present once `parseSelector` returns. */
export interface DeviceSelector {
  kid?: string | undefined;
  udid?: string | undefined;
}

const SELECTOR_MAX = 128;

// Numbers are accepted because JSON clients sometimes send numeric-looking kids unquoted; an empty value
// counts as not given, like an absent one.
const selectorValue = preprocess(
  (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v.trim() : v),
  z.optional(
    z.pipe(
      z.string().check(z.refine((s) => [...s].length <= SELECTOR_MAX)),
      z.transform((s: string) => (s === '' ? undefined : s)),
    ),
  ),
);

const selectorSchema = z.object({ kid: selectorValue, udid: selectorValue });

/**
 * kid and/or udid when given, `undefined` when neither is. A value that cannot be a kid/udid (an object, over
 * 128 characters) is refused by name rather than ignored.
 */
export function parseOptionalSelector(params: Record<string, unknown>): DeviceSelector | undefined {
  const parsed = selectorSchema.safeParse({ kid: params.kid ?? undefined, udid: params.udid ?? undefined });
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))];
    throw new DomainError('device_selector_missing', 'device_selector_invalid', { fields });
  }
  const { kid, udid } = parsed.data;
  return kid === undefined && udid === undefined ? undefined : { kid, udid };
}

/** The device endpoints' selector: neither kid nor udid is code 20. */
export function parseSelector(params: Record<string, unknown>): DeviceSelector {
  const selector = parseOptionalSelector(params);
  if (!selector) throw new DomainError('device_selector_missing', 'device_selector_missing');
  return selector;
}

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
