import type { IpaInspection } from './ipa-inspection';
import { inspectionView } from './ipa-inspection-view';
import { emptyPermissions, emptyScreenshots, type AppPermissions, type Screenshots } from './source-format';

export type PublishStatus = 'draft' | 'published';

/**
 * What a reseller describes an app with: everything the sideloading clients show or need. Optional text is
 * stored as '' when unset; `size` stays undefined until it is known (given, or looked up at publish).
 */
export interface AppMetadata {
  name: string;
  version: string;
  download_url: string;
  bundle_identifier: string;
  developer_name: string;
  description: string;
  icon_url: string;
  size: number | undefined;
  version_description: string;
  /** Six hex digits without `#`, or ''. */
  tint_color: string;
  /** 0 app, 1 game. */
  type: 0 | 1;
  /** 1: the download is only for devices that unlocked the source. */
  lock: 0 | 1;
  min_os_version: string;
  /** The newest iOS version the build runs on, or ''. */
  max_os_version: string;
  screenshots: Screenshots;
  /** What the build uses, as the reseller declares it (entitlements, privacy usage descriptions). */
  app_permissions: AppPermissions;
}

export type AppField = keyof AppMetadata;

/** The fields an owner may still change once an app is in the feed: presentation, never identity or build. */
export const PUBLISHED_EDITABLE_FIELDS = ['description', 'version_description', 'icon_url', 'tint_color', 'developer_name', 'lock', 'screenshots', 'app_permissions'] as const satisfies readonly AppField[];

export interface App extends AppMetadata {
  id: number;
  source_id: string;
  /** 0 = draft (hidden from the feed), 1 = published (listed in the feed). */
  status: number;
  publish_status: PublishStatus;
  created_at: number;
  published_at: number | undefined;
  /** What reading the IPA at `download_url` found (absent until a download URL was inspected). */
  ipa?: IpaInspection | undefined;
  /**
   * How many edits the app has had (absent before its first): publish writes only if it is still what publish
   * read, so an edit made while publish looked at the download is never published unseen.
   */
  revision?: number | undefined;
}

export const emptyMetadata = (): AppMetadata => ({
  name: '',
  version: '',
  download_url: '',
  bundle_identifier: '',
  developer_name: '',
  description: '',
  icon_url: '',
  size: undefined,
  version_description: '',
  tint_color: '',
  type: 0,
  lock: 0,
  min_os_version: '',
  max_os_version: '',
  screenshots: emptyScreenshots(),
  app_permissions: emptyPermissions(),
});

/** The allowlisted fields the publish response shows to the source owner (the contract's list). */
export function appView(app: App): Record<string, unknown> {
  return {
    id: app.id,
    source_id: app.source_id,
    name: app.name,
    version: app.version,
    download_url: app.download_url,
    status: app.status,
    publish_status: app.publish_status,
  };
}

/** What the app management endpoints show: the publish view plus the metadata; never internals. */
export function appDetailView(app: App): Record<string, unknown> {
  return {
    ...appView(app),
    bundle_identifier: app.bundle_identifier,
    developer_name: app.developer_name,
    description: app.description,
    icon_url: app.icon_url,
    size: app.size ?? null,
    version_description: app.version_description,
    tint_color: app.tint_color,
    type: app.type,
    lock: app.lock,
    min_os_version: app.min_os_version,
    inspection: inspectionView(app.ipa),
    max_os_version: app.max_os_version,
    screenshots: app.screenshots,
    app_permissions: app.app_permissions,
  };
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Apple's bundle identifier shape: reverse-DNS labels of letters, digits and hyphens, at least two. */
export const BUNDLE_ID_PATTERN = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

/**
 * What publishing still lacks, by parameter name: a name, a version, an http(s) download URL, a reverse-DNS
 * bundle identifier, a developer name, an http(s) icon URL and a size. Empty when the draft is complete.
 */
export function missingForPublish(app: AppMetadata): AppField[] {
  const missing: AppField[] = [];
  if (app.name.trim() === '') missing.push('name');
  if (app.version.trim() === '') missing.push('version');
  if (!isHttpUrl(app.download_url.trim())) missing.push('download_url');
  if (!BUNDLE_ID_PATTERN.test(app.bundle_identifier)) missing.push('bundle_identifier');
  if (app.developer_name.trim() === '') missing.push('developer_name');
  if (!isHttpUrl(app.icon_url.trim())) missing.push('icon_url');
  if (app.size === undefined || !Number.isSafeInteger(app.size) || app.size < 0) missing.push('size');
  return missing;
}
