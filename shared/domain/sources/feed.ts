/**
 * The public feed sideloading clients read. One JSON document loads in AltStore/SideStore (source format
 * v2), Feather and the ESign family, which ignore keys they do not know:
 * - AltStore/SideStore drop the whole source for one bad app, so every app carries a bundle identifier,
 *   developer, description, icon and versions with an ISO date (no fractional seconds), an integer size and
 *   a non-empty absolute download URL; optional URLs are left out rather than empty.
 * - Feather wants an icon on every app.
 * - The ESign family needs `identifier` and an absolute `sourceURL`, and reads the newest version's fields
 *   flat on the app, `sourceicon`, `payURL`, `unlockURL` and `lock` ("0"/"1").
 */
import { isIP } from 'node:net';
import { listApps } from '../../db/repositories/app-repository';
import { udidKey } from '../../records/device';
import { missingForPublish, type App } from '../../records/app';
import { BLOCKED_APP_ID, gateUrl, linkExpiry } from './download-links';
import { sealDeviceRef } from './device-ref';
import { sourceIconPath, sourceUrl, type Source } from '../../records/source';
import { appPermissionsFor } from './app-permissions';
import { appPermissionsEntry, screenshotsEntry, sourcePresentationEntry } from '../../records/source-format';
import { localize } from '../../i18n/localize';
import type { Lang } from '../../i18n/languages';

/** Who reads the feed, as far as the service can tell. */
export interface AskingDevice {
  /** Upper-case UDID the links are bound to; undefined when the reader gave none usable. */
  udid: string | undefined;
  /** The UDID came with its device key: proven, not merely claimed (only a proven device's unlocks count). */
  proven: boolean;
  /** The tag of that device key, sealed into the links: they die with the key. */
  keyTag?: string | undefined;
  /** The source's owner disabled this device: every link goes through the gate, which refuses it. */
  disabled: boolean;
  /** On the source's block list: the reader gets the blocked document instead of the catalogue. */
  blocked: boolean;
  /** Unlocked the source with a code, and the unlock still runs: locked apps show unlocked. */
  unlocked: boolean;
}

export interface FeedContext {
  source: Source & { link_secret: string };
  /** Scheme, host and base path the feed was read on; links and `sourceURL` use it. */
  baseUrl: string;
  host: string;
  device: AskingDevice;
  nowSeconds: number;
  linkTtlSeconds: number;
}

/** `2026-11-23T08:00:00Z`: ISO 8601 in UTC without fractional seconds (AltStore refuses them). */
export function isoSeconds(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The stored identifier, else the host's labels reversed plus the source id (`local.<id>` on an IP or localhost). */
export function defaultIdentifier(host: string, sourceId: string): string {
  if (isIP(host) || host === 'localhost' || host === '') return `local.${sourceId}`;
  return [...host.split('.').filter(Boolean).reverse(), sourceId].join('.');
}

/** Published apps whose metadata is complete; older rows missing what the clients require stay out of the feed. */
function listable(apps: App[]): App[] {
  return apps.filter((app) => app.publish_status === 'published' && missingForPublish(app).length === 0);
}

const newestFirst = (a: App, b: App) => (b.published_at ?? 0) - (a.published_at ?? 0) || b.id - a.id;

/** Published apps grouped by bundle identifier, each group newest first, groups by their newest release. */
export function groupReleases(apps: App[]): App[][] {
  const groups = new Map<string, App[]>();
  for (const app of listable(apps).sort(newestFirst)) {
    const group = groups.get(app.bundle_identifier);
    if (group) group.push(app);
    else groups.set(app.bundle_identifier, [app]);
  }
  return [...groups.values()];
}

/**
 * The download URL of one release. The origin URL only when nothing has to be decided at download time: the
 * source does not protect links (`encrypt_enabled` 0), the app is not locked and the device is not
 * disabled. Otherwise a gate link bound to the asking UDID (or to none, which the gate refuses).
 */
function downloadUrl(app: App, ctx: FeedContext, appLocked: boolean): string {
  const gated = ctx.source.encrypt_enabled === 1 || appLocked || ctx.device.disabled;
  if (!gated) return app.download_url;
  return linkFor(app.id, ctx, appLocked);
}

/**
 * A gate link for `appId`, bound to the asking device (or to none, which the gate refuses). The device is
 * sealed into the link, never written in clear: a link seen by others reveals no UDID to read the feed as.
 */
function linkFor(appId: number, ctx: FeedContext, locked = false): string {
  const { udid, proven } = ctx.device;
  return gateUrl(ctx.baseUrl, ctx.source.link_secret, {
    sourceId: ctx.source.source_id,
    appId,
    device: udid === undefined ? '' : sealDeviceRef(ctx.source.link_secret, { udid, proven, keyTag: ctx.device.keyTag }),
    exp: linkExpiry(ctx.nowSeconds, ctx.linkTtlSeconds),
    locked,
  });
}

function appEntry(releases: App[], ctx: FeedContext): Record<string, unknown> {
  const newest = releases[0]!;
  // A lock is the whole app's: locking any release locks every release, older versions included.
  const appLocked = releases.some((app) => app.lock === 1);
  const versions = releases.map((app) => {
    // What the IPA itself says wins: AltStore and SideStore check the download against these.
    const ipa = app.ipa?.state === 'ok' && app.ipa.url === app.download_url ? app.ipa.facts : undefined;
    const minOS = ipa?.minOSVersion || app.min_os_version;
    return {
      version: app.version,
      date: isoSeconds(app.published_at ?? 0),
      localizedDescription: app.version_description,
      downloadURL: downloadUrl(app, ctx, appLocked),
      size: ipa?.size ?? app.size ?? 0,
      ...(ipa?.buildVersion ? { buildVersion: ipa.buildVersion } : {}),
      ...(minOS ? { minOSVersion: minOS } : {}),
      ...(ipa ? { sha256: ipa.sha256 } : {}),
      ...(app.max_os_version ? { maxOSVersion: app.max_os_version } : {}),
    };
  });
  // What the IPA uses, plus what the reseller declares that the IPA does not (app-permissions.ts).
  const permissions = appPermissionsFor(newest.ipa?.url === newest.download_url ? newest.ipa : undefined, newest.app_permissions);
  const latest = versions[0]!;
  return {
    name: newest.name,
    bundleIdentifier: newest.bundle_identifier,
    developerName: newest.developer_name,
    localizedDescription: newest.description || newest.name,
    iconURL: newest.icon_url,
    ...(newest.tint_color ? { tintColor: newest.tint_color } : {}),
    type: newest.type,
    ...screenshotsEntry(newest.screenshots),
    ...appPermissionsEntry(permissions),
    versions,
    // The ESign family reads the newest release flat on the app.
    version: latest.version,
    versionDate: latest.date,
    versionDescription: latest.localizedDescription,
    downloadURL: latest.downloadURL,
    size: latest.size,
    // Locked for this reader unless it unlocked the source; the gate decides for every version either way.
    lock: appLocked && !ctx.device.unlocked ? '1' : '0',
  };
}

/** Source-level keys every document shares: identity, address, announcement, icon. */
function sourceHeader(ctx: FeedContext) {
  const source = ctx.source;
  return {
    identifier: source.identifier || defaultIdentifier(ctx.host, source.source_id),
    sourceURL: `${ctx.baseUrl}${sourceUrl(source.source_id)}`,
    ...(source.source_icon ? { iconURL: source.source_icon, sourceicon: source.source_icon } : {}),
  };
}

/** The feed document for one reader; `stored` are the source's apps when the caller has already read them. */
export async function buildFeed(ctx: FeedContext, stored?: App[]): Promise<Record<string, unknown>> {
  const source = ctx.source;
  const releases = groupReleases(stored ?? (await listApps(source.source_id)));
  const header = sourceHeader(ctx);
  const apps = releases.map((group) => appEntry(group, ctx));
  // Offered while the source has locked apps at all, so an unlocked reader can still extend its unlock.
  const anyLocked = releases.some((group) => group.some((app) => app.lock === 1));
  return {
    name: source.name,
    ...header,
    ...(source.message ? { message: source.message, description: source.message } : {}),
    ...(source.pay_url ? { payURL: source.pay_url } : {}),
    ...(anyLocked ? { unlockURL: header.sourceURL } : {}),
    // subtitle, description (the setting over the announcement), header, website, tint, featured apps, news.
    ...sourcePresentationEntry(source, releases.map((group) => group[0]!.bundle_identifier), isoSeconds),
    apps,
  };
}

/** Why a reader gets the placeholder instead of the catalogue. */
export type PlaceholderReason = 'blocked' | 'proof_required';

/**
 * What a blocked UDID reads: a document every client still loads, whose name and message tell the reader,
 * in its language, that the source owner blocked the device. Its one app is a placeholder saying the same,
 * whose links go to the gate under the reserved app id, which refuses them `blocked`. No real app appears.
 * A source that requires proof answers a reader without a valid device key the same way, with a notice
 * that says to open the source from the device's own link.
 */
export function buildBlockedFeed(ctx: FeedContext, lang: Lang, reason: PlaceholderReason = 'blocked'): Record<string, unknown> {
  const title = localize(lang, reason === 'blocked' ? 'blocked_title' : 'proof_required_title');
  const notice = localize(lang, reason === 'blocked' ? 'blocked_notice' : 'proof_required_notice');
  return buildPlaceholderFeed(ctx, { title, notice, kind: 'blocked' });
}

/**
 * A document every client loads that shows one notice instead of the catalogue: its name and message, and
 * one placeholder app (bundle identifier `<kind>.<source_id>`) whose links go to the gate under the reserved
 * app id, which always refuses them. The blocked document is one; a suspended source's is another.
 */
export function buildPlaceholderFeed(ctx: FeedContext, { title, notice, kind }: { title: string; notice: string; kind: string }): Record<string, unknown> {
  const source = ctx.source;
  const header = sourceHeader(ctx);
  const version = { version: '0', date: isoSeconds(ctx.nowSeconds), localizedDescription: notice, downloadURL: linkFor(BLOCKED_APP_ID, ctx), size: 0 };
  const placeholder = {
    name: title,
    bundleIdentifier: `${kind}.${source.source_id}`,
    developerName: source.name,
    localizedDescription: notice,
    iconURL: source.source_icon || `${ctx.baseUrl}${sourceIconPath(source.source_id)}`,
    type: 0,
    versions: [version],
    version: version.version,
    versionDate: version.date,
    versionDescription: notice,
    downloadURL: version.downloadURL,
    size: 0,
    lock: '1',
  };
  return { name: title, ...header, message: notice, description: notice, apps: [placeholder] };
}

/** A UDID as the feed and gate compare it: upper case (the owner's records match case-insensitively). */
export const canonicalUdid = udidKey;
