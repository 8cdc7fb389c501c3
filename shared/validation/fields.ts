import { z } from 'zod';
import { isHttpUrl } from '../domain/sources/app';

/** Length in Unicode code points, as users count characters (an emoji is one, not two). */
export const codePoints = (value: string): number => [...value].length;

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** A trimmed string of at most `max` code points. */
export const text = (max: number, { min = 0 } = {}) =>
  z.preprocess(
    trimmed,
    z.string().refine((s) => codePoints(s) >= min && codePoints(s) <= max),
  );

/** 0 or 1; from a query string or form the strings "0" and "1" only ("1x", "true", "01" are refused). */
export const bit = () =>
  z.preprocess(
    (v) => {
      const t = trimmed(v);
      return t === '0' ? 0 : t === '1' ? 1 : t;
    },
    z.union([z.literal(0), z.literal(1)]),
  );

/** A positive integer; strings must be plain decimal digits. */
export const positiveInt = () =>
  z.preprocess(
    (v) => {
      const t = trimmed(v);
      return typeof t === 'string' && /^[1-9]\d{0,14}$/.test(t) ? Number(t) : t;
    },
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  );

/** An absolute http(s) URL of at most 2048 characters. */
export const httpUrl = () =>
  z.preprocess(
    trimmed,
    z.string().refine((s) => codePoints(s) <= 2048 && isHttpUrl(s)),
  );

/** A JSON object (or a JSON-encoded string holding one) of at most `maxBytes` serialized. */
export const jsonObject = (maxBytes: number) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    },
    z
      .record(z.string(), z.unknown())
      .refine((o) => Buffer.byteLength(JSON.stringify(o), 'utf8') <= maxBytes),
  );

/** Names of the parameters a zod failure points at. */
export function failedFields(error: { issues: readonly { path: readonly PropertyKey[] }[] }): string[] {
  return [...new Set(error.issues.map((issue) => String(issue.path[0] ?? 'body')))];
}
