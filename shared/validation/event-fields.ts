/** Field rules of the webhook and events routes. */
import * as z from 'zod/mini';
import { EVENT_TYPES } from '../records/event';
import { CURSOR_PATTERN, EVENTS_PAGE } from '../domain/events/feed';
import { isAcceptableWebhookUrl } from '../records/webhook';
import { preprocess } from './fields';

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** Event types as a JSON array or a comma-separated string (query, form); each a known type, at least one, no more than there are. */
export const eventTypes = () =>
  preprocess(
    (v) => (typeof v === 'string' ? v.split(',').map((t) => t.trim()) : v),
    z.array(z.enum(EVENT_TYPES)).check(z.minLength(1), z.maxLength(EVENT_TYPES.length * 2)),
  );

/** The webhook's URL: see `isAcceptableWebhookUrl`; stored as URL parsing gives it (`href`), like every stored URL. */
export const webhookUrl = () => z.pipe(preprocess(trimmed, z.string().check(z.refine(isAcceptableWebhookUrl))), z.transform((s: string) => new URL(s).href));

/** A whole number in [min, max]; strings must be plain decimal digits. */
export const intBetween = (min: number, max: number) =>
  preprocess(
    (v) => {
      const t = trimmed(v);
      return typeof t === 'string' && /^(0|[1-9]\d{0,14})$/.test(t) ? Number(t) : t;
    },
    z.int().check(z.minimum(min), z.maximum(max)),
  );

/** true/false, or from a query string or form `1`/`0`/`true`/`false`. */
export const flag = () =>
  preprocess(
    (v) => {
      const t = trimmed(v);
      if (t === '1' || t === 'true' || t === 1) return true;
      if (t === '0' || t === 'false' || t === 0) return false;
      return t;
    },
    z.boolean(),
  );

export const eventCursor = () => preprocess(trimmed, z.string().check(z.regex(CURSOR_PATTERN)));

export const pageLimit = () => intBetween(1, EVENTS_PAGE.max);

/** Cents a user may set as the low-balance threshold (0 = off). */
export const BALANCE_THRESHOLD_MAX = 1_000_000_000;
