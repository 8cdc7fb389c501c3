/**
 * What the public feed and the download gate do, free of HTTP: find the source on the caller's tenant,
 * work out who is asking, build the document; check a download link and name the build it unlocks.
 */
import { withSourceKeys } from '../../db/repositories/source-repository';
import { readFeedSource, readGateSource, readStanding, type Standing, type StandingRead } from '../../db/repositories/feed-read-repository';
import { aheadMatches, rememberStanding, standingAhead } from './standing-ahead';
import { getSource } from '../../db/repositories/source-repository';
import { deviceKeyTag, openDeviceRef } from './device-ref';
import { listApps } from '../../db/repositories/app-repository';
import { isUdidFormat } from '../../records/device';
import { DomainError } from '../errors';
import { buildBlockedFeed, buildFeed, type AskingDevice } from './feed';
import { BLOCKED_APP_ID, isValidSignature } from './download-links';
import { isUnlocked, NO_STANDING } from '../../records/protection';
import { buildSuspendedFeed, isSuspended, type SuspensionPolicy } from './suspended-feed';
import type { Lang } from '../../i18n/languages';
import type { Source } from '../../records/source';
import { agentBrand, type PageBrand } from '../agents/storefront-brand';
import type { DownloadLine } from '../../observability/download-log';

const refuse = (reason: 'bad_signature' | 'udid_required' | 'link_expired' | 'blocked' | 'device_disabled' | 'locked' | 'source_suspended' | 'device_url_revoked') => new DomainError('download_refused', reason);

/** Who the feed's query says is asking. */
export interface DeviceQuery {
  /** The UDID claimed by `?udid=`, canonical; undefined unless given once and well formed. */
  udid: string | undefined;
  /** The device key of a device-bound feed URL (`?dk=`), when given once and well formed. */
  key: string | undefined;
}

/**
 * Who asks. A valid device key proves its UDID (a claimed `udid` beside it is ignored); a bare UDID is only
 * claimed. Blocks and disabled certificates restrict whichever UDID the links are bound to, proven or not
 * (hiding behind another claim gains nothing a reader without a UDID would not get); an unlock counts only
 * for the proven device, so a typed UDID never receives what another device paid for. A `kid` binds nothing.
 */
export async function askingDevice(source: Pick<Source, 'source_id' | 'owner_id'>, claimed: string | undefined, provenUdid: string | undefined, nowSeconds: number, ahead?: { read: StandingRead | undefined; standing: Standing | undefined }): Promise<AskingDevice> {
  const udid = provenUdid ?? claimed;
  const proven = provenUdid !== undefined;
  if (udid === undefined) return { udid, proven, disabled: false, blocked: false, unlocked: false };
  // Read ahead in the first batch for the UDID and owner that batch shows (standing-ahead.ts), or now.
  const standing = ahead?.standing && aheadMatches(ahead.read, udid, source.owner_id) ? ahead.standing : await readStanding(source.source_id, source.owner_id, udid);
  return { udid, proven, disabled: standing.disabled, blocked: standing.blocked, unlocked: proven && isUnlocked(standing, nowSeconds) };
}

export interface FeedRequest {
  sourceId: string;
  tenantId: string;
  baseUrl: string;
  host: string;
  query: DeviceQuery;
  nowSeconds: number;
  linkTtlSeconds: number;
  /** The blocked document speaks the reader's language. */
  lang: Lang;
  /** When the owner's subscription ended more than the grace period ago, the feed is the suspended document. */
  suspension: SuspensionPolicy;
  /** Read on an agent's storefront domain: only that agent's sources are served there. */
  storefrontOwner?: string | undefined;
}

/**
 * An agent's source carries its storefront where the source sets nothing itself: the logo as its icon, the
 * buttons' colour as its tint, the buy link as its website (the source's own settings always win).
 */
function withStorefrontDefaults<S extends Source>(source: S, brand: PageBrand): S {
  return {
    ...source,
    source_icon: source.source_icon || brand.logoUrl,
    tint_color: source.tint_color || brand.primaryColor.replace(/^#/, ''),
    website: source.website || brand.buyUrl,
  };
}

export interface FeedAnswer {
  document: Record<string, unknown>;
  /** Links are per device and expire: the answer must not be cached by anyone else. */
  encrypted: boolean;
  /** base64url of the source's 32-byte JWE key. */
  feedKey: string;
}

export async function readFeed(request: FeedRequest): Promise<FeedAnswer> {
  // Round trip 1 (beside the per-IP limit): the source, its published apps and the device key's UDID, and the
  // standing this instance expects for the UDID the key or the query names (standing-ahead.ts).
  const { key, udid: claimed } = request.query;
  const name = key !== undefined ? `dk:${deviceKeyTag(key)}` : undefined;
  const ahead = standingAhead(request.sourceId, name, claimed);
  const found = await readFeedSource(request.sourceId, key, ahead);
  if (!found.source || found.source.tenant_id !== request.tenantId) throw new DomainError('source_not_found', 'source_not_found');
  // On an agent's storefront domain only its own sources exist (source-lookup.ts says why).
  if (request.storefrontOwner !== undefined && found.source.owner_id !== request.storefrontOwner) throw new DomainError('source_not_found', 'source_not_found');
  rememberStanding(found.source.source_id, found.source.owner_id, name, found.provenUdid);
  const keyed = await withSourceKeys(found.source);
  // Round trip 2, unless read ahead: where the device stands (and the apps themselves, only when the feed copy
  // is not complete).
  // (Whether the owner's subscription lapsed is cached per container: it costs a read once a minute at most.)
  // (An agent's storefront, which fills what the source leaves unset, is cached per container the same way.)
  const [device, apps, suspended, brand] = await Promise.all([
    askingDevice(keyed, claimed, found.provenUdid, request.nowSeconds, { read: ahead, standing: found.ahead }).then((d) => (d.proven && request.query.key ? { ...d, keyTag: deviceKeyTag(request.query.key) } : d)),
    found.apps ?? listApps(keyed.source_id),
    isSuspended(keyed, request.suspension, request.nowSeconds),
    agentBrand(keyed.owner_id, request.tenantId),
  ]);
  const source = brand ? withStorefrontDefaults(keyed, brand) : keyed;
  const ctx = { source, baseUrl: request.baseUrl, host: request.host, device, nowSeconds: request.nowSeconds, linkTtlSeconds: request.linkTtlSeconds };
  const placeholder = device.blocked ? 'blocked' : source.device_proof === 'required' && !device.proven ? 'proof_required' : undefined;
  const document = suspended ? buildSuspendedFeed(ctx, request.lang) : placeholder ? buildBlockedFeed(ctx, request.lang, placeholder) : await buildFeed(ctx, apps);
  return { document, encrypted: source.encrypt_enabled === 1, feedKey: source.feed_key };
}

export interface DownloadRequest {
  sourceId: string;
  tenantId: string;
  /** The path's app id; undefined when it was not a plain decimal number (an unknown app). */
  appId: number | undefined;
  /** The link's parameters, each undefined unless given exactly once (and `exp` unless in plain digits). */
  device: string | undefined;
  exp: number | undefined;
  sig: string | undefined;
  /** The link says the app was locked (every release of it) when it was issued; the signature covers it. */
  locked?: boolean;
  nowSeconds: number;
  /** A suspended source (see `suspension` of the feed) refuses every link `source_suspended`. */
  suspension: SuspensionPolicy;
}

/**
 * Checks a download link and answers the origin URL it unlocks. The order is fixed and each refusal names
 * its reason: the signature (covering source, app, sealed device and expiry), a link issued without a device, expiry,
 * then the device's standing with the source's owner (block list, disabled device), then the app itself
 * (unknown or unpublished → 404; locked unless the link's device was proven by its device key, unlocked the
 * source, and the unlock still runs).
 * The reserved app id of the blocked document's placeholder refuses `blocked` as soon as its link is genuine.
 */
export async function checkDownload(request: DownloadRequest): Promise<{ location: string; download: DownloadLine }> {
  const { appId, device, exp, sig } = request;
  // Round trip 1 (beside the per-IP limit): the source and the app in one BatchGetItem, with the standing this
  // instance expects for the UDID the link names (standing-ahead.ts).
  const name = device !== undefined ? `ref:${device}` : undefined;
  const ahead = standingAhead(request.sourceId, name);
  const found = appId === undefined ? { source: await getSource(request.sourceId), app: undefined, ahead: undefined } : await readGateSource(request.sourceId, appId, ahead);
  const source = found.source;
  if (!source || source.tenant_id !== request.tenantId) throw new DomainError('source_not_found', 'source_not_found');
  if (appId === undefined) throw new DomainError('app_not_found', 'app_not_found');
  const secret = source.link_secret;
  const signed =
    device !== undefined &&
    exp !== undefined &&
    sig !== undefined &&
    secret !== undefined &&
    isValidSignature(secret, { sourceId: source.source_id, appId, device, exp, locked: request.locked }, sig);
  if (!signed) throw refuse('bad_signature');
  if (await isSuspended(source, request.suspension, request.nowSeconds)) throw refuse('source_suspended');
  if (appId === BLOCKED_APP_ID) throw refuse('blocked');
  if (device === '') throw refuse('udid_required');
  if (exp < request.nowSeconds) throw refuse('link_expired');
  const ref = openDeviceRef(secret, device);
  if (!ref) throw refuse('bad_signature');
  const withKey = ref.keyTag !== undefined;
  if (isUdidFormat(ref.udid)) rememberStanding(source.source_id, source.owner_id, name, ref.udid, withKey);
  // Round trip 2, unless read ahead for this UDID and owner: where the link's device stands.
  // (With a proven link's device key in the same BatchGetItem: no round trip of its own.)
  const standing = !isUdidFormat(ref.udid)
    ? { ...NO_STANDING, disabled: false }
    : found.ahead && aheadMatches(ahead, ref.udid, source.owner_id, withKey)
      ? found.ahead
      : await readStanding(source.source_id, source.owner_id, ref.udid, withKey);
  if (standing.blocked) throw refuse('blocked');
  // A link issued under a device key the owner revoked (or replaced) since dies with it.
  if (ref.keyTag !== undefined && (standing.deviceKey === undefined || deviceKeyTag(standing.deviceKey) !== ref.keyTag)) throw refuse('device_url_revoked');
  if (standing.disabled) throw refuse('device_disabled');
  const app = found.app;
  if (!app || app.publish_status !== 'published') throw new DomainError('app_not_found', 'app_not_found');
  // A lock is the whole app's: this release's own, or the app's as the feed saw it when it issued the link.
  if ((app.lock === 1 || request.locked === true) && !(ref.proven && isUnlocked(standing, request.nowSeconds))) throw refuse('locked');
  // What the download counts for (the gate logs it: no call of its own, shared/observability/download-log.ts).
  return { location: locationOf(app.download_url), download: { tenant: source.tenant_id, owner: source.owner_id, source: source.source_id, app: appId, at: request.nowSeconds } };
}

/**
 * The redirect's `Location`: the stored URL as URL parsing writes it (spaces and other characters a header
 * cannot carry percent-encoded), so a gate redirect always has a valid `Location`. A stored value no URL
 * parser accepts (an old import) is no download.
 */
function locationOf(downloadUrl: string): string {
  try {
    return new URL(downloadUrl.trim()).href;
  } catch {
    throw new DomainError('app_not_found', 'app_not_found');
  }
}
