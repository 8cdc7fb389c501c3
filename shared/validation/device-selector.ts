/**
 * Which device a device endpoint's request names: `kid` and/or `udid`. Legacy clients send extra parameters,
 * so unknown ones are ignored here.
 */
import * as z from 'zod/mini';
import { DomainError } from '../domain/errors';
import type { DeviceSelector } from '../domain/devices/device-service';
import { preprocess } from './fields';

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
