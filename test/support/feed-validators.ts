/**
 * What each client family's parser refuses in a source document, restated as checks (from their parsers:
 * AltStore/SideStore's source v2 decoding, Feather's AltSourceKit, the ESign family's `rjy`/`appstore`
 * reader). Each returns the problems it finds; an empty list means that client loads the document.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

/** The source format's structure as a JSON Schema; the checks below add what the parsers enforce beyond it. */
const schemaPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'altstore-source.schema.json');
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const altStoreSchema = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);

function schemaProblems(doc: unknown): string[] {
  if (altStoreSchema(doc)) return [];
  return (altStoreSchema.errors ?? []).map((e) => `schema: ${e.instancePath || '/'} ${e.message ?? ''}`);
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function isAbsoluteUrl(v: unknown): boolean {
  if (typeof v !== 'string' || v === '') return false;
  try {
    const url = new URL(v);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** ISO 8601 as Swift's ISO8601DateFormatter parses it by default: no fractional seconds. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;
const URL_KEYS = ['sourceURL', 'iconURL', 'sourceicon', 'payURL', 'unlockURL', 'headerURL', 'website', 'downloadURL'];

/** Any URL-valued key that is present must hold an absolute URL: an empty one breaks AltStore's decoding. */
function urlProblems(where: string, obj: Json): string[] {
  return URL_KEYS.filter((k) => k in obj && !isAbsoluteUrl(obj[k])).map((k) => `${where}.${k} is not an absolute URL`);
}

export function altStoreProblems(doc: unknown): string[] {
  if (!isObject(doc)) return ['document is not an object'];
  const problems: string[] = schemaProblems(doc);
  if (!isText(doc.name)) problems.push('source name missing');
  problems.push(...urlProblems('source', doc));
  if (!Array.isArray(doc.apps)) return [...problems, 'apps is not an array'];
  const bundles = new Set<string>();
  doc.apps.forEach((app: unknown, i) => {
    const at = `apps[${i}]`;
    if (!isObject(app)) return problems.push(`${at} is not an object`);
    for (const key of ['name', 'bundleIdentifier', 'developerName']) if (!isText(app[key])) problems.push(`${at}.${key} missing`);
    if (typeof app.localizedDescription !== 'string') problems.push(`${at}.localizedDescription missing`);
    if (!isAbsoluteUrl(app.iconURL)) problems.push(`${at}.iconURL is not an absolute URL`);
    problems.push(...urlProblems(at, app));
    if (typeof app.bundleIdentifier === 'string') {
      if (bundles.has(app.bundleIdentifier)) problems.push(`${at}.bundleIdentifier repeats`);
      bundles.add(app.bundleIdentifier);
    }
    if ('tintColor' in app && !(typeof app.tintColor === 'string' && /^[0-9A-Fa-f]{6}$/.test(app.tintColor))) problems.push(`${at}.tintColor is not 6 hex digits`);
    // AltStore refuses a source whose privacy permission has no usage description, and reads entitlements as names.
    if ('appPermissions' in app) {
      const permissions = app.appPermissions;
      if (!isObject(permissions)) problems.push(`${at}.appPermissions is not an object`);
      else {
        if ('entitlements' in permissions && !(Array.isArray(permissions.entitlements) && permissions.entitlements.every(isText))) problems.push(`${at}.appPermissions.entitlements is not a list of names`);
        if ('privacy' in permissions) {
          if (!isObject(permissions.privacy)) problems.push(`${at}.appPermissions.privacy is not an object`);
          else for (const [key, text] of Object.entries(permissions.privacy)) if (!isText(text)) problems.push(`${at}.appPermissions.privacy.${key} has no usage description`);
        }
      }
    }
    if (!Array.isArray(app.versions) || app.versions.length === 0) return problems.push(`${at}.versions is empty`);
    app.versions.forEach((version: unknown, j) => {
      const vat = `${at}.versions[${j}]`;
      if (!isObject(version)) return problems.push(`${vat} is not an object`);
      if (!isText(version.version)) problems.push(`${vat}.version missing`);
      if (!(typeof version.date === 'string' && ISO_DATE.test(version.date))) problems.push(`${vat}.date is not ISO 8601 without fractional seconds`);
      if (!isAbsoluteUrl(version.downloadURL)) problems.push(`${vat}.downloadURL is not an absolute URL`);
      if (!Number.isInteger(version.size)) problems.push(`${vat}.size is not an integer`);
      if ('sha256' in version && !(typeof version.sha256 === 'string' && /^[0-9a-f]{64}$/i.test(version.sha256))) problems.push(`${vat}.sha256 is not a SHA-256 in hex`);
      if ('localizedDescription' in version && typeof version.localizedDescription !== 'string') problems.push(`${vat}.localizedDescription is not text`);
      return undefined;
    });
    return undefined;
  });
  return problems;
}

/** Feather: a non-empty `apps` (an empty source is exempt where the caller says so), each with a valid icon. */
export function featherProblems(doc: unknown, { allowEmpty = false } = {}): string[] {
  if (!isObject(doc)) return ['document is not an object'];
  if (!Array.isArray(doc.apps)) return ['apps is not an array'];
  if (doc.apps.length === 0 && !allowEmpty) return ['apps is empty'];
  return doc.apps.flatMap((app: unknown, i) => (isObject(app) && isAbsoluteUrl(app.iconURL) ? [] : [`apps[${i}].iconURL is not a valid URL`]));
}

export function esignProblems(doc: unknown): string[] {
  if (!isObject(doc)) return ['document is not an object'];
  const problems: string[] = [];
  if (!isText(doc.name)) problems.push('source name missing');
  if (!isText(doc.identifier)) problems.push('identifier missing');
  if (!isAbsoluteUrl(doc.sourceURL)) problems.push('sourceURL is not absolute');
  for (const key of ['sourceicon', 'payURL', 'unlockURL']) if (key in doc && !isAbsoluteUrl(doc[key])) problems.push(`${key} is not an absolute URL`);
  if (!Array.isArray(doc.apps)) return [...problems, 'apps is not an array'];
  doc.apps.forEach((app: unknown, i) => {
    const at = `apps[${i}]`;
    if (!isObject(app)) return problems.push(`${at} is not an object`);
    for (const key of ['name', 'version', 'versionDate']) if (!isText(app[key])) problems.push(`${at}.${key} missing`);
    if (typeof app.versionDescription !== 'string') problems.push(`${at}.versionDescription missing`);
    if (typeof app.downloadURL !== 'string') problems.push(`${at}.downloadURL missing`);
    if (!isAbsoluteUrl(app.iconURL)) problems.push(`${at}.iconURL is not an absolute URL`);
    if (!Number.isInteger(app.size)) problems.push(`${at}.size is not an integer`);
    if (app.lock !== '0' && app.lock !== '1') problems.push(`${at}.lock is not "0" or "1"`);
    if (app.type !== 0 && app.type !== 1) problems.push(`${at}.type is not 0 or 1`);
    return undefined;
  });
  return problems;
}

/** Every `downloadURL` in the document, flat and per version. */
export function downloadUrls(doc: unknown): string[] {
  if (!isObject(doc) || !Array.isArray(doc.apps)) return [];
  return doc.apps.flatMap((app: unknown) => {
    if (!isObject(app)) return [];
    const versions = Array.isArray(app.versions) ? app.versions.filter(isObject).map((v) => v.downloadURL) : [];
    return [app.downloadURL, ...versions].map((u) => String(u));
  });
}

/** All three families at once, plus the rule that no `downloadURL` is ever empty. */
export function feedProblems(doc: unknown, { emptySource = false } = {}): Record<string, string[]> {
  return {
    altstore: altStoreProblems(doc),
    feather: featherProblems(doc, { allowEmpty: emptySource }),
    esign: esignProblems(doc),
    downloads: downloadUrls(doc).filter((u) => u === '' || u === 'undefined').map(() => 'empty downloadURL'),
  };
}

export const NO_PROBLEMS = { altstore: [], feather: [], esign: [], downloads: [] };
