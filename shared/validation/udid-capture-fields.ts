/** Field rules of the UDID capture routes: return targets, tickets, a reseller id, paging. */
import * as z from 'zod/mini';
import { DomainError } from '../domain/errors';
import { TICKET_MAX_CHARS } from '../domain/udid-capture/ticket';
import { isReturnUrl } from '../domain/udid-capture/return-targets';
import { codePoints, failedFields, preprocess } from './fields';

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
/**
 * Where the customer returns: a well-formed return URL (udid-capture/return-targets.ts). Whether this tenant
 * may send a device there is the service's check (`return_not_allowed`).
 */
export const returnTarget = () => preprocess(trimmed, z.string().check(z.refine((s) => codePoints(s) <= 2048 && isReturnUrl(s))));

/** A capture ticket: a compact JWS, nothing else (its signature is checked by the service). */
export const ticketField = () =>
  preprocess(trimmed, z.string().check(z.refine((s) => s.length <= TICKET_MAX_CHARS && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(s))));

/** An id the service generated (a user id): short and URL-safe. */
export const idField = () => preprocess(trimmed, z.string().check(z.regex(/^[A-Za-z0-9_-]{1,128}$/)));

/** Parses `params` with `shape`: unknown parameters are ignored, a bad value is 400 naming it. */
export function parseFields<S extends Record<string, z.ZodMiniType>>(params: Record<string, unknown>, shape: S): z.infer<z.ZodMiniObject<S>> {
  const parsed = z.object(shape).safeParse(params);
  if (!parsed.success) throw new DomainError('validation', 'invalid_value', { fields: failedFields(parsed.error) });
  return parsed.data as z.infer<z.ZodMiniObject<S>>;
}

/** Paging of a list: `limit` 1–100 (default 20), `cursor` the previous page's `next_cursor`. */
export const pagingShape = {
  limit: z.optional(
    preprocess(
      (v) => {
        const t = trimmed(v);
        return typeof t === 'string' && /^[1-9]\d{0,2}$/.test(t) ? Number(t) : t;
      },
      z.number().check(z.refine((n) => Number.isInteger(n) && n >= 1 && n <= 100)),
    ),
  ),
  cursor: z.optional(preprocess(trimmed, z.string().check(z.regex(/^\d{10}#cap_[A-Za-z0-9]{1,40}$/)))),
};
