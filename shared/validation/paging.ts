import * as z from 'zod/mini';
import { validationError } from '../domain/errors';
import { preprocess } from './fields';

export const PAGE_LIMITS = { min: 1, max: 100, default: 20 } as const;

/** Items per page, 1–100; from a query string plain decimal digits only ("1x", "01" are refused). */
export const pageLimit = () =>
  preprocess(
    (v) => {
      const t = typeof v === 'string' ? v.trim() : v;
      return typeof t === 'string' && /^[1-9]\d{0,2}$/.test(t) ? Number(t) : t;
    },
    z.int().check(z.minimum(PAGE_LIMITS.min), z.maximum(PAGE_LIMITS.max)),
  );

/** The `next_cursor` of the previous page, as a listing handed it out; short, so a forged one costs nothing to refuse. */
export const cursorText = () => z.string().check(z.maxLength(200));

/**
 * The position a cursor names (base64url of the last item's id), when it decodes to an id of the expected
 * shape; anything else is 40002 `cursor_invalid`, never passed on to the database.
 */
export function decodeCursor(cursor: string | undefined, idShape: RegExp): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const id = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!idShape.test(id)) throw validationError('cursor_invalid', ['cursor']);
  return id;
}
