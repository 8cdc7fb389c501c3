/**
 * Parameters of the reseller's own lists (devices, ledger): a page size, an opaque cursor, Unix-second times,
 * and the rule that every parameter must be one the list knows (a misspelt filter would otherwise silently
 * list everything). An empty value counts as not given.
 */
import * as z from 'zod/mini';
import { DomainError, validationError } from '../domain/errors';
import { failedFields, preprocess } from './fields';

export const LIST_LIMIT = { max: 100, default: 20 } as const;

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
/** '' and null are "not given", like an absent parameter. */
const absentIfEmpty = (value: unknown) => {
  const t = trimmed(value);
  return t === '' || t === null ? undefined : t;
};

/** A whole number in [min, max]; from a query string or form plain decimal digits only ("1x", "01" are refused). */
export const wholeNumber = ({ min, max }: { min: number; max: number }) =>
  preprocess(
    (v) => {
      const t = absentIfEmpty(v);
      return typeof t === 'string' && /^(0|[1-9]\d{0,15})$/.test(t) ? Number(t) : t;
    },
    z.optional(z.number().check(z.refine((n) => Number.isSafeInteger(n) && n >= min && n <= max))),
  );

/** Unix seconds (0 … year 9999). */
export const unixSeconds = () => wholeNumber({ min: 0, max: 253_402_300_799 });

export const listLimit = () => wholeNumber({ min: 1, max: LIST_LIMIT.max });

/** One of `values`, case-insensitive. */
export const oneOf = <const T extends string>(values: readonly T[]) =>
  preprocess((v) => {
    const t = absentIfEmpty(v);
    return typeof t === 'string' ? t.toLowerCase() : t;
  }, z.optional(z.enum(values)));

/** true for `1 true yes`, false for `0 false no` (any case); JSON booleans as they are. */
export const flag = () =>
  preprocess((v) => {
    const t = absentIfEmpty(v);
    if (typeof t !== 'string') return t === 1 ? true : t === 0 ? false : t;
    const lower = t.toLowerCase();
    return ['1', 'true', 'yes'].includes(lower) ? true : ['0', 'false', 'no'].includes(lower) ? false : t;
  }, z.optional(z.boolean()));

/** Trimmed text of 1–`max` code points (the chain already refused control characters). */
export const searchText = (max: number) => preprocess(absentIfEmpty, z.optional(z.string().check(z.refine((s) => [...s].length <= max))));

export const cursorParam = () => preprocess(absentIfEmpty, z.optional(z.string().check(z.maxLength(512), z.regex(/^[A-Za-z0-9_-]+$/))));

/**
 * The list's parameters: `token` (checked by the chain) and the shape's; anything else is refused by name,
 * then each value by its rule.
 */
export function parseListParams<S extends z.core.$ZodShape>(params: Record<string, unknown>, shape: S): z.infer<z.ZodMiniObject<S>> {
  const unknown = Object.keys(params).filter((key) => key !== 'token' && !Object.hasOwn(shape, key));
  if (unknown.length > 0) throw validationError('unknown_param', unknown);
  const { token: _token, ...rest } = params;
  const parsed = z.object(shape).safeParse(rest);
  if (!parsed.success) throw validationError('invalid_value', failedFields(parsed.error));
  return parsed.data;
}

/** `from` after `to`: the range is empty by mistake. */
export function checkRange(from: number | undefined, to: number | undefined, fields: [string, string]): void {
  if (from !== undefined && to !== undefined && from > to) throw validationError('range_invalid', fields);
}

/**
 * Cursors are opaque to callers: base64url of a small JSON position. One that does not decode to the shape
 * the list expects is refused (never used to read something else: the caller's own id is not in it).
 */
export function encodeCursor(position: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function decodeCursor<T>(cursor: string | undefined, shape: z.ZodMiniType<T>): T | undefined {
  if (cursor === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    raw = undefined;
  }
  const parsed = shape.safeParse(raw);
  if (!parsed.success) throw new DomainError('validation', 'cursor_invalid', { fields: ['cursor'] });
  return parsed.data;
}
