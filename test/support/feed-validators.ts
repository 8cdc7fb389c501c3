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
import { keptForWorker } from './worker-memo';

type Json = Record<string, unknown>;

/** The source format's structure as a JSON Schema; the checks below add what the parsers enforce beyond it. */
const schemaPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'altstore-source.schema.json');
const altStoreSchema = keptForWorker(`altstore-schema ${schemaPath}`, () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);
});

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

const HEX6 = /^[0-9A-Fa-f]{6}$/;
/** AltStore decodes a screenshot's width and height as Int16. */
const isInt16Side = (v: unknown) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 32_767;
const OS_VERSION = /^\d+(\.\d+){0,2}$/;

/** AltStore's NewsItem: identifier, date, title, caption required; tint, image, url, appID, notify typed. */
function newsProblems(news: unknown, bundles: ReadonlySet<string>): string[] {
  if (news === undefined) return [];
  if (!Array.isArray(news)) return ['news is not an array'];
  const problems: string[] = [];
  const ids = new Set<string>();
  news.forEach((item: unknown, i) => {
    const at = `news[${i}]`;
    if (!isObject(item)) return problems.push(`${at} is not an object`);
    for (const key of ['identifier', 'title', 'caption']) if (!isText(item[key])) problems.push(`${at}.${key} missing`);
    if (!(typeof item.date === 'string' && ISO_DATE.test(item.date))) problems.push(`${at}.date is not ISO 8601 without fractional seconds`);
    if (typeof item.identifier === 'string') {
      if (ids.has(item.identifier)) problems.push(`${at}.identifier repeats`);
      ids.add(item.identifier);
    }
    if ('tintColor' in item && !(typeof item.tintColor === 'string' && HEX6.test(item.tintColor))) problems.push(`${at}.tintColor is not 6 hex digits`);
    for (const key of ['imageURL', 'url']) if (key in item && !isAbsoluteUrl(item[key])) problems.push(`${at}.${key} is not an absolute URL`);
    if ('appID' in item && !(typeof item.appID === 'string' && bundles.has(item.appID))) problems.push(`${at}.appID names no app of the source`);
    if ('notify' in item && typeof item.notify !== 'boolean') problems.push(`${at}.notify is not a boolean`);
    return undefined;
  });
  return problems;
}

/** `{"iphone": [...], "ipad": [...]}` (or a plain list): each a URL or {imageURL, width, height}; iPad ones sized. */
function screenshotProblems(at: string, screenshots: unknown): string[] {
  if (screenshots === undefined) return [];
  const problems: string[] = [];
  const entries = (list: unknown, where: string, sized: boolean) => {
    if (!Array.isArray(list)) return problems.push(`${where} is not an array`);
    list.forEach((shot: unknown, i) => {
      if (typeof shot === 'string') {
        if (!isAbsoluteUrl(shot)) problems.push(`${where}[${i}] is not an absolute URL`);
        if (sized) problems.push(`${where}[${i}] has no size`);
        return;
      }
      if (!isObject(shot) || !isAbsoluteUrl(shot.imageURL)) return problems.push(`${where}[${i}].imageURL is not an absolute URL`);
      const hasW = 'width' in shot;
      const hasH = 'height' in shot;
      if (hasW !== hasH || (hasW && !(isInt16Side(shot.width) && isInt16Side(shot.height)))) problems.push(`${where}[${i}] size is not two 16-bit integers`);
      if (sized && !hasW) problems.push(`${where}[${i}] has no size`);
      return undefined;
    });
    return undefined;
  };
  if (Array.isArray(screenshots)) entries(screenshots, `${at}.screenshots`, false);
  else if (!isObject(screenshots) || !Object.keys(screenshots).every((k) => k === 'iphone' || k === 'ipad')) problems.push(`${at}.screenshots is not {iphone, ipad}`);
  else {
    if ('iphone' in screenshots) entries(screenshots.iphone, `${at}.screenshots.iphone`, false);
    if ('ipad' in screenshots) entries(screenshots.ipad, `${at}.screenshots.ipad`, true);
  }
  return problems;
}

/** `{"entitlements": [names], "privacy": {"…UsageDescription": "text"}}`; a privacy permission needs its text. */
function permissionProblems(at: string, permissions: unknown): string[] {
  if (permissions === undefined) return [];
  if (!isObject(permissions)) return [`${at}.appPermissions is not an object`];
  const problems: string[] = [];
  const { entitlements, privacy } = permissions;
  if (entitlements !== undefined && !(Array.isArray(entitlements) && entitlements.every(isText))) problems.push(`${at}.appPermissions.entitlements is not a list of names`);
  if (privacy !== undefined) {
    if (!isObject(privacy)) problems.push(`${at}.appPermissions.privacy is not an object`);
    else for (const [key, text] of Object.entries(privacy)) if (!/UsageDescription$/.test(key) || !isText(text)) problems.push(`${at}.appPermissions.privacy.${key} has no usage description`);
  }
  return problems;
}

export function altStoreProblems(doc: unknown): string[] {
  if (!isObject(doc)) return ['document is not an object'];
  const problems: string[] = schemaProblems(doc);
  if (!isText(doc.name)) problems.push('source name missing');
  problems.push(...urlProblems('source', doc));
  if ('tintColor' in doc && !(typeof doc.tintColor === 'string' && HEX6.test(doc.tintColor))) problems.push('source tintColor is not 6 hex digits');
  const listed = new Set(Array.isArray(doc.apps) ? doc.apps.filter(isObject).map((a) => String(a.bundleIdentifier)) : []);
  if ('featuredApps' in doc && !(Array.isArray(doc.featuredApps) && doc.featuredApps.every((b) => typeof b === 'string' && listed.has(b)))) problems.push('featuredApps names an app the source does not list');
  problems.push(...newsProblems(doc.news, listed));
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
    if ('tintColor' in app && !(typeof app.tintColor === 'string' && HEX6.test(app.tintColor))) problems.push(`${at}.tintColor is not 6 hex digits`);
    // AltStore Classic refuses a source that names a marketplace app.
    if ('marketplaceID' in app) problems.push(`${at}.marketplaceID is present`);
    problems.push(...screenshotProblems(at, app.screenshots), ...permissionProblems(at, app.appPermissions));
    if ('screenshotURLs' in app && !(Array.isArray(app.screenshotURLs) && app.screenshotURLs.every(isAbsoluteUrl))) problems.push(`${at}.screenshotURLs is not a list of absolute URLs`);
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
      for (const key of ['minOSVersion', 'maxOSVersion']) if (key in version && !(typeof version[key] === 'string' && OS_VERSION.test(version[key]))) problems.push(`${vat}.${key} is not a version`);
      return undefined;
    });
    return undefined;
  });
  return problems;
}

/**
 * Feather: a non-empty `apps` (an empty source is exempt where the caller says so), each with a valid icon;
 * the optional source keys it decodes (header, website, tint, featured apps, news) typed as AltStore's.
 */
export function featherProblems(doc: unknown, { allowEmpty = false } = {}): string[] {
  if (!isObject(doc)) return ['document is not an object'];
  if (!Array.isArray(doc.apps)) return ['apps is not an array'];
  if (doc.apps.length === 0 && !allowEmpty) return ['apps is empty'];
  const problems = doc.apps.flatMap((app: unknown, i) => (isObject(app) && isAbsoluteUrl(app.iconURL) ? [] : [`apps[${i}].iconURL is not a valid URL`]));
  for (const key of ['headerURL', 'website']) if (key in doc && !isAbsoluteUrl(doc[key])) problems.push(`${key} is not a valid URL`);
  if ('tintColor' in doc && !(typeof doc.tintColor === 'string' && HEX6.test(doc.tintColor))) problems.push('tintColor is not 6 hex digits');
  if ('featuredApps' in doc && !(Array.isArray(doc.featuredApps) && doc.featuredApps.every(isText))) problems.push('featuredApps is not a list of bundle identifiers');
  const bundles = new Set(doc.apps.filter(isObject).map((a) => String(a.bundleIdentifier)));
  problems.push(...newsProblems(doc.news, bundles));
  return problems;
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
