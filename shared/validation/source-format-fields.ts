/**
 * Field rules of the richer source format: screenshots, app permissions, featured apps. Each arrives as JSON
 * (or as JSON text from a query string, a form or a CLI flag), is checked whole against what the clients
 * decode (see shared/domain/sources/source-format.ts) and stored normalized; anything else is refused, so a
 * feed never carries a value a client would choke on.
 */
import * as z from 'zod/mini';
import { BUNDLE_ID_PATTERN } from '../records/app';
import {
  ENTITLEMENT_PATTERN,
  PRIVACY_KEY_PATTERN,
  SOURCE_FORMAT_LIMITS as LIMITS,
  type AppPermissions,
  type Screenshot,
  type Screenshots,
} from '../records/source-format';
import { fromJsonText, storedUrl } from './fields';

// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
const codePoints = (value: string): number => [...value].length;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (obj: Record<string, unknown>, allowed: readonly string[]) => Object.keys(obj).every((k) => allowed.includes(k));

/** An absolute http(s) URL, stored normalized (the shared rule); undefined otherwise. */
const urlValue = storedUrl;

const side = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= LIMITS.screenshotSide;

/** A URL, or `{image_url, width, height}` (both sizes or neither); `sized` requires the size. */
function screenshot(value: unknown, sized: boolean): Screenshot | undefined {
  if (typeof value === 'string') return sized ? undefined : mapUrl(urlValue(value));
  if (!isObject(value) || !onlyKeys(value, ['image_url', 'width', 'height'])) return undefined;
  const url = urlValue(value.image_url);
  if (!url) return undefined;
  if (value.width === undefined && value.height === undefined) return sized ? undefined : { url };
  return side(value.width) && side(value.height) ? { url, width: value.width, height: value.height } : undefined;
}
const mapUrl = (url: string | undefined): Screenshot | undefined => (url ? { url } : undefined);

function screenshotList(value: unknown, sized: boolean): Screenshot[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > LIMITS.screenshotsPerClass) return undefined;
  const shots = value.map((v) => screenshot(v, sized));
  return shots.every((s): s is Screenshot => s !== undefined) ? shots : undefined;
}

/**
 * `{"iphone": [...], "ipad": [...]}` (a plain list means iPhone), at most 10 per class; iPad screenshots must
 * give width and height (AltStore lays iPad screenshots out by their size). `{}` or `[]` clears them.
 */
export function parseScreenshots(value: unknown): Screenshots | null {
  const raw = fromJsonText(value);
  if (Array.isArray(raw)) {
    const iphone = screenshotList(raw, false);
    return iphone ? { iphone, ipad: [] } : null;
  }
  if (!isObject(raw) || !onlyKeys(raw, ['iphone', 'ipad'])) return null;
  const iphone = screenshotList(raw.iphone, false);
  const ipad = screenshotList(raw.ipad, true);
  return iphone && ipad ? { iphone, ipad } : null;
}

/**
 * `{"entitlements": ["com.apple…"], "privacy": {"NSCameraUsageDescription": "To scan codes"}}`: at most 50
 * of each, entitlement names as Apple writes them, privacy keys `…UsageDescription` (`NSCameraUsageDescription`) each with a usage text
 * (1–500 characters; AltStore refuses a permission without one). Both keys optional; `{}` clears them.
 */
export function parseAppPermissions(value: unknown): AppPermissions | null {
  const raw = fromJsonText(value);
  if (!isObject(raw) || !onlyKeys(raw, ['entitlements', 'privacy'])) return null;
  const entitlements = raw.entitlements ?? [];
  const privacy = raw.privacy ?? {};
  if (!Array.isArray(entitlements) || entitlements.length > LIMITS.entitlements) return null;
  if (!entitlements.every((e) => typeof e === 'string' && e.length <= LIMITS.entitlementLength && ENTITLEMENT_PATTERN.test(e))) return null;
  if (new Set(entitlements).size !== entitlements.length) return null;
  if (!isObject(privacy) || Object.keys(privacy).length > LIMITS.privacy) return null;
  const usage: Record<string, string> = {};
  for (const [key, text] of Object.entries(privacy)) {
    if (!PRIVACY_KEY_PATTERN.test(key) || typeof text !== 'string') return null;
    const trimmed = text.trim();
    if (trimmed === '' || codePoints(trimmed) > LIMITS.usageDescription || ANY_CONTROL.test(trimmed)) return null;
    usage[key] = trimmed;
  }
  return { entitlements: entitlements as string[], privacy: usage };
}

/** Bundle identifiers of the source's apps to feature, at most 20, no repeats; `[]` clears them. */
export function parseFeaturedApps(value: unknown): string[] | null {
  const raw = fromJsonText(value);
  if (!Array.isArray(raw) || raw.length > LIMITS.featuredApps) return null;
  const ids = raw.map((v) => (typeof v === 'string' ? v.trim() : ''));
  if (!ids.every((id) => id.length <= 155 && BUNDLE_ID_PATTERN.test(id)) || new Set(ids).size !== ids.length) return null;
  return ids;
}

/** The parsers above as zod fields: `null` (refused) fails the check behind them. */
const accepted = (v: unknown) => v !== null;
export const screenshotsField = () => z.pipe(z.transform(parseScreenshots), z.custom<Screenshots, Screenshots | null>(accepted));
export const appPermissionsField = () => z.pipe(z.transform(parseAppPermissions), z.custom<AppPermissions, AppPermissions | null>(accepted));
export const featuredAppsField = () => z.pipe(z.transform(parseFeaturedApps), z.custom<string[], string[] | null>(accepted));
