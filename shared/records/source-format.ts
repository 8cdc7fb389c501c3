/**
 * The richer parts of the source format (AltStore 2.x / SideStore source v2; Feather reads the same keys):
 * the source's presentation (subtitle, description, header, website, tint, featured apps), its news, and per
 * app screenshots and permissions. What each client decodes, from their models:
 * - news items: `identifier`, `date`, `title`, `caption` required; `tintColor` (6 hex), `imageURL`, `url`,
 *   `appID` (a bundle identifier of the source), `notify` (bool) optional.
 * - `screenshots`: `{"iphone": [...], "ipad": [...]}`, each entry a URL or `{imageURL, width, height}` with
 *   the sizes decoded as 16-bit integers; iPad entries must give their size. Older AltStore reads only
 *   `screenshotURLs` (a list of iPhone URLs), so that list goes alongside.
 * - `appPermissions`: `{"entitlements": ["…"], "privacy": {"NS…UsageDescription": "text"}}`; AltStore refuses
 *   a privacy permission without its usage description, so none is stored without one.
 * Everything here is pure: no storage, no HTTP. A value a client would refuse is never emitted: empty lists
 * and unknown references are left out instead.
 */
import { createHash } from 'node:crypto';

/** One screenshot; the size is in pixels (AltStore decodes it as a 16-bit integer). */
export interface Screenshot {
  url: string;
  width?: number;
  height?: number;
}

/** Screenshots per device class, in display order. */
export interface Screenshots {
  iphone: Screenshot[];
  ipad: Screenshot[];
}

/** What the reseller declares the app uses: entitlement names, and privacy keys with their usage text. */
export interface AppPermissions {
  entitlements: string[];
  privacy: Record<string, string>;
}

/** A news item of a source, as stored (snake_case like every stored field). */
export interface NewsItem {
  news_id: string;
  title: string;
  caption: string;
  /** Unix seconds: when the item is dated (given, else when it was posted). */
  date: number;
  image_url?: string;
  url?: string;
  /** Bundle identifier of an app of the source the item is about. */
  app_id?: string;
  tint_color?: string;
  /** AltStore shows a notification for the item. */
  notify?: boolean;
  created_at: number;
}

/** The source settings that only change how clients present the source. */
export interface SourcePresentation {
  subtitle?: string;
  description?: string;
  header_url?: string;
  website?: string;
  tint_color?: string;
  /** Bundle identifiers, in the order the owner wants them shown. */
  featured_apps?: string[];
}

export const SOURCE_FORMAT_LIMITS = {
  subtitle: 200,
  description: 4000,
  featuredApps: 20,
  screenshotsPerClass: 10,
  /** AltStore decodes a screenshot's width and height as Int16. */
  screenshotSide: 32_767,
  entitlements: 50,
  entitlementLength: 200,
  privacy: 50,
  usageDescription: 500,
  news: 20,
  newsTitle: 100,
  newsCaption: 1000,
} as const;

/** `NSCameraUsageDescription`, `NFCReaderUsageDescription`…: the Info.plist keys AltStore lists as privacy permissions. */
export const PRIVACY_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9]{0,100}UsageDescription$/;
/** `com.apple.developer.…`, `aps-environment`, `keychain-access-groups`: entitlement names as Apple writes them. */
export const ENTITLEMENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const emptyScreenshots = (): Screenshots => ({ iphone: [], ipad: [] });
export const emptyPermissions = (): AppPermissions => ({ entitlements: [], privacy: {} });

const screenshotEntry = (shot: Screenshot): string | { imageURL: string; width: number; height: number } =>
  shot.width !== undefined && shot.height !== undefined ? { imageURL: shot.url, width: shot.width, height: shot.height } : shot.url;

/**
 * `screenshots` by device class (iPad entries always carry their size: the validator refuses one without), and
 * the legacy `screenshotURLs` of the iPhone class for older clients. Nothing when the app has none.
 */
export function screenshotsEntry(screenshots: Screenshots | undefined): Record<string, unknown> {
  const iphone = screenshots?.iphone ?? [];
  const ipad = (screenshots?.ipad ?? []).filter((shot) => shot.width !== undefined && shot.height !== undefined);
  if (iphone.length === 0 && ipad.length === 0) return {};
  return {
    screenshots: {
      ...(iphone.length ? { iphone: iphone.map(screenshotEntry) } : {}),
      ...(ipad.length ? { ipad: ipad.map(screenshotEntry) } : {}),
    },
    ...(iphone.length ? { screenshotURLs: iphone.map((shot) => shot.url) } : {}),
  };
}

/**
 * `appPermissions` from what the app declares; nothing when it declares none. The one place the feed turns
 * stored permissions into the client shape, so that permissions found by inspecting the IPA can be merged in
 * here (the union of both lists; the owner's usage text wins over an empty one).
 */
export function appPermissionsEntry(permissions: AppPermissions | undefined): Record<string, unknown> {
  const entitlements = permissions?.entitlements ?? [];
  const privacy = Object.fromEntries(Object.entries(permissions?.privacy ?? {}).filter(([, text]) => text.trim() !== ''));
  if (entitlements.length === 0 && Object.keys(privacy).length === 0) return {};
  return { appPermissions: { entitlements, privacy } };
}

/** A stored news item in the client shape; a reference to an app the document does not list is left out. */
function newsEntry(item: NewsItem, isoDate: (unixSeconds: number) => string, listed: ReadonlySet<string>): Record<string, unknown> {
  return {
    identifier: item.news_id,
    date: isoDate(item.date),
    title: item.title,
    caption: item.caption,
    ...(item.tint_color ? { tintColor: item.tint_color } : {}),
    ...(item.image_url ? { imageURL: item.image_url } : {}),
    ...(item.url ? { url: item.url } : {}),
    ...(item.app_id && listed.has(item.app_id) ? { appID: item.app_id } : {}),
    ...(item.notify ? { notify: true } : {}),
  };
}

/** The announcement's news identifier changes with its text, so clients see a new announcement as new. */
export const announcementId = (message: string): string => `announcement-${createHash('sha256').update(message).digest('hex').slice(0, 12)}`;

export interface PresentedSource extends SourcePresentation {
  name: string;
  message: string;
  /** When the announcement was last set (Unix seconds). */
  message_at?: number;
  updated_at: number;
  news?: NewsItem[];
}

/**
 * The source-level keys of the richer format: `subtitle`, `description` (the description setting, else the
 * announcement, as before), `headerURL`, `website`, `tintColor`, `featuredApps` (only apps the document
 * lists) and `news` (the announcement first and dated as the newest, then the news items newest first).
 */
export function sourcePresentationEntry(
  source: PresentedSource,
  listedBundles: readonly string[],
  isoDate: (unixSeconds: number) => string,
): Record<string, unknown> {
  const listed = new Set(listedBundles);
  const featured = (source.featured_apps ?? []).filter((bundle) => listed.has(bundle));
  const sorted = [...(source.news ?? [])].sort((a, b) => b.date - a.date || b.created_at - a.created_at);
  const items = sorted.map((item) => newsEntry(item, isoDate, listed));
  // The announcement is the newest item: clients order news by date, so it is dated no earlier than any item.
  const announcedAt = Math.max(source.message_at ?? source.updated_at, sorted[0]?.date ?? 0);
  const announcement = source.message ? [{ identifier: announcementId(source.message), date: isoDate(announcedAt), title: source.name, caption: source.message }] : [];
  const news = [...announcement, ...items];
  const description = source.description || source.message;
  return {
    ...(source.subtitle ? { subtitle: source.subtitle } : {}),
    ...(description ? { description } : {}),
    ...(source.header_url ? { headerURL: source.header_url } : {}),
    ...(source.website ? { website: source.website } : {}),
    ...(source.tint_color ? { tintColor: source.tint_color } : {}),
    ...(featured.length ? { featuredApps: featured } : {}),
    ...(news.length ? { news } : {}),
  };
}
