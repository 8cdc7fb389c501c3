import * as z from 'zod/mini';
import { isUdidFormat, udidKey } from '../records/device';
import { isHttpUrl } from '../records/app';
import { ID_PATTERN } from '../ids';

/** Length in Unicode code points, as users count characters (an emoji is one, not two). */
export const codePoints = (value: string): number => [...value].length;

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** Runs `prepare` on the raw value, then validates what it returns (zod's preprocess, in the mini API). */
export const preprocess = <T extends z.ZodMiniType>(prepare: (value: unknown) => unknown, schema: T) => z.pipe(z.transform(prepare), schema);

/** A trimmed string of at most `max` code points. */
export const text = (max: number, { min = 0 } = {}) =>
  preprocess(
    trimmed,
    z.string().check(z.refine((s) => codePoints(s) >= min && codePoints(s) <= max)),
  );

/** 0 or 1; from a query string or form the strings "0" and "1" only ("1x", "true", "01" are refused). */
export const bit = () =>
  preprocess(
    (v) => {
      const t = trimmed(v);
      return t === '0' ? 0 : t === '1' ? 1 : t;
    },
    z.union([z.literal(0), z.literal(1)]),
  );

/** A positive integer; strings must be plain decimal digits. */
export const positiveInt = () =>
  preprocess(
    (v) => {
      const t = trimmed(v);
      return typeof t === 'string' && /^[1-9]\d{0,14}$/.test(t) ? Number(t) : t;
    },
    z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER)),
  );

// eslint-disable-next-line no-control-regex -- URL parsing silently drops tab and line breaks: refuse them instead
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * THE stored URL: an absolute http(s) URL of at most 2048 characters without control characters, in the
 * form URL parsing gives it (`new URL(s).href`: scheme and host lower case, an IDN host in punycode, spaces
 * and other characters percent-encoded). Stored so, every link the service hands out later (a feed's,
 * the gate's `Location`) is valid as it stands. Undefined when the value is no such URL.
 */
export function storedUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const url = value.trim();
  return codePoints(url) <= 2048 && !ANY_CONTROL.test(url) && isHttpUrl(url) ? new URL(url).href : undefined;
}

/** The URL field rule every stored URL uses (app, source, news, screenshots): trimmed, checked, stored normalized. */
export const httpUrl = () =>
  z.pipe(
    preprocess(trimmed, z.string().check(z.refine((s) => storedUrl(s) !== undefined))),
    z.transform((s: string) => storedUrl(s)!),
  );

/** A JSON-encoded string decoded; anything else, or text that is not JSON, as it came (for the schema to refuse). */
export function fromJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** At most `maxBytes` once serialized as JSON. */
export const withinJsonBytes = (maxBytes: number) => z.refine((value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8') <= maxBytes);

/** A UDID as a path or parameter gives it: one well-formed value, upper-cased; undefined otherwise. */
export function udidParam(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const udid = value.trim();
  return isUdidFormat(udid) ? udidKey(udid) : undefined;
}

/** An optional `source_id` parameter: absent or empty is undefined, anything but one id-shaped string is refused. */
export const optionalSourceId = () =>
  preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
    z.optional(z.string().check(z.regex(ID_PATTERN))),
  );

/** Names of the parameters a zod failure points at. */
export function failedFields(error: { issues: readonly { path: readonly PropertyKey[] }[] }): string[] {
  return [...new Set(error.issues.map((issue) => String(issue.path[0] ?? 'body')))];
}

/** One of the caller's agents' id (the device list's and the ledger's filter); empty means none. */
export const agentIdParam = () =>
  preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : trimmed(v)), z.optional(z.string().check(z.regex(ID_PATTERN))));
