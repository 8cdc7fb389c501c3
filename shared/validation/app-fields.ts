/**
 * Field schemas of app metadata, in zod's tree-shakable mini form: the text caps keep a feed far below
 * Lambda's response limit, and no control character reaches a client (tab, CR and LF only in the
 * multi-line descriptions).
 */
import * as z from 'zod/mini';
import { BUNDLE_ID_PATTERN } from '../records/app';
import { httpUrl } from './fields';
import { DomainError, validationError } from '../domain/errors';
import { appPermissionsField, screenshotsField } from './source-format-fields';

const codePoints = (value: string): number => [...value].length;
const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const refinedText = (check: (s: string) => boolean) => z.pipe(z.transform(trimmed), z.string().check(z.refine(check)));

/** Trimmed text of `min`–`max` code points without control characters (tab and line breaks when multi-line). */
export const appText = (max: number, { min = 0, multiline = false } = {}) =>
  refinedText((s) => codePoints(s) >= min && codePoints(s) <= max && !(multiline ? CONTROL_BUT_LINE_BREAKS : ANY_CONTROL).test(s));

/** An absolute http(s) URL of at most 2048 characters, stored normalized (the shared rule, `httpUrl`). */
export const appUrl = httpUrl;

/** 0 or 1; from a query string or form only the strings "0" and "1". */
export const appBit = () =>
  z.pipe(
    z.transform((v: unknown) => {
      const t = trimmed(v);
      return t === '0' ? 0 : t === '1' ? 1 : t;
    }),
    z.union([z.literal(0), z.literal(1)]),
  );

/** A size in bytes: a non-negative safe integer (plain decimal digits when it arrives as text). */
export const appSize = () =>
  z.pipe(
    z.transform((v: unknown) => {
      const t = trimmed(v);
      return typeof t === 'string' && /^\d{1,16}$/.test(t) ? Number(t) : t;
    }),
    z.number().check(z.refine((n) => Number.isSafeInteger(n) && n >= 0)),
  );

/** Six hex digits; a leading `#` is accepted and dropped (AltStore wants none); '' clears it. */
export const tintColor = () =>
  z.pipe(
    z.transform((v: unknown) => {
      const t = trimmed(v);
      return typeof t === 'string' ? t.replace(/^#/, '') : t;
    }),
    z.string().check(z.refine((s) => s === '' || /^[0-9A-Fa-f]{6}$/.test(s))),
  );

/** `14`, `14.0`, `15.4.1`, or '' for none. */
export const osVersion = () => refinedText((s) => s === '' || /^\d{1,3}(\.\d{1,3}){0,2}$/.test(s));

export const bundleIdentifier = () => refinedText((s) => codePoints(s) <= 155 && BUNDLE_ID_PATTERN.test(s));

/**
 * Every app field as the management endpoints and the operator CLI accept it; all optional here. Like every
 * schema (the source settings' among them) it is a list of fields, so it looks like the others on purpose.
 */
export const appFieldsShape = {
  name: z.optional(appText(100, { min: 1 })),
  version: z.optional(appText(64, { min: 1 })),
  download_url: z.optional(appUrl()),
  bundle_identifier: z.optional(bundleIdentifier()),
  developer_name: z.optional(appText(100, { min: 1 })),
  description: z.optional(appText(4000, { multiline: true })),
  icon_url: z.optional(appUrl()),
  size: z.optional(appSize()),
  version_description: z.optional(appText(4000, { multiline: true })),
  tint_color: z.optional(tintColor()),
  type: z.optional(appBit()),
  lock: z.optional(appBit()),
  min_os_version: z.optional(osVersion()),
  max_os_version: z.optional(osVersion()),
  screenshots: z.optional(screenshotsField()),
  app_permissions: z.optional(appPermissionsField()),
};

const versionParts = (v: string) => v.split('.').map(Number);

/** `a` is a later iOS version than `b` (`15.4.1` > `15.4`, `16` > `15.9`). */
export function isLaterOs(a: string, b: string): boolean {
  const [x, y] = [versionParts(a), versionParts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return false;
}

/** A build cannot need a later iOS than the newest it runs on: `min_os_version` after `max_os_version` is refused. */
export function checkOsRange(fields: { min_os_version?: string | undefined; max_os_version?: string | undefined }): void {
  const { min_os_version: min, max_os_version: max } = fields;
  if (min && max && isLaterOs(min, max)) throw validationError('invalid_value', ['max_os_version']);
}

/** Set by the service or named by the path, never by the caller. */
export const readOnlyAppFields = ['id', 'app_id', 'source_id', 'status', 'publish_status', 'created_at', 'published_at'] as const;

/** The app id of a management path: a positive decimal integer, else the app does not exist (404). */
export function appIdFromPath(value: string | undefined): number {
  if (value === undefined || !/^[1-9]\d{0,14}$/.test(value)) throw new DomainError('app_not_found', 'app_not_found');
  return Number(value);
}
