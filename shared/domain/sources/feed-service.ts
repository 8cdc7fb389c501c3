/**
 * What the public feed and the download gate do, free of HTTP: find the source on the caller's tenant,
 * work out who is asking, build the document; check a download link and name the build it unlocks.
 */
import { withSourceKeys } from '../../db/repositories/source-repository';
import { getApp } from '../../db/repositories/app-repository';
import { deviceStanding } from '../../db/repositories/protection-repository';
import { isUdidFormat } from '../devices/device';
import { isUdidDisabled, ownedDevice } from '../devices/device-service';
import { DomainError } from '../errors';
import { buildBlockedFeed, buildFeed, canonicalUdid, type AskingDevice } from './feed';
import { BLOCKED_APP_ID, isValidSignature } from './download-links';
import { isUnlocked, NO_STANDING } from './protection';
import { sourceOnTenant } from './source-lookup';
import { buildSuspendedFeed, isSuspended, type SuspensionPolicy } from './suspended-feed';
import type { Lang } from '../../i18n/languages';
import type { Actor, Source } from './source';

const refuse = (reason: 'bad_signature' | 'udid_required' | 'link_expired' | 'blocked' | 'device_disabled' | 'locked' | 'source_suspended') => new DomainError('download_refused', reason);

const ownerOf = (source: Pick<Source, 'owner_id' | 'tenant_id'>): Actor => ({ userId: source.owner_id, tenantId: source.tenant_id });

/** Who the feed's query says is asking. */
export interface DeviceQuery {
  /** The UDID, canonical; undefined unless given once and well formed. */
  udid: string | undefined;
  /** A few distinct kids of the owner's certificates, as given. */
  kids: readonly string[];
}

/**
 * Who asks. A kid can only withhold: its certificate being disabled withholds, and without a usable UDID the
 * links are bound to that certificate's UDID. Any disabled certificate of the bound UDID withholds, whatever
 * kid came with it. The bound UDID's standing with the source (blocked, unlocked) comes from the source's own
 * records.
 */
export async function askingDevice(source: Pick<Source, 'source_id' | 'owner_id' | 'tenant_id'>, query: DeviceQuery, nowSeconds: number): Promise<AskingDevice> {
  const owner = ownerOf(source);
  let udid = query.udid;
  let disabled = false;
  for (const kid of query.kids) {
    const device = await ownedDevice(owner, kid);
    if (!device) continue;
    if (!device.enabled) disabled = true;
    udid ??= canonicalUdid(device.udid);
  }
  if (udid === undefined) return { udid, disabled, blocked: false, unlocked: false };
  const [standing, udidDisabled] = await Promise.all([deviceStanding(source.source_id, udid), disabled ? true : isUdidDisabled(owner, udid)]);
  return { udid, disabled: udidDisabled, blocked: standing.blocked, unlocked: isUnlocked(standing, nowSeconds) };
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
}

export interface FeedAnswer {
  document: Record<string, unknown>;
  /** Links are per device and expire: the answer must not be cached by anyone else. */
  encrypted: boolean;
  /** base64url of the source's 32-byte JWE key. */
  feedKey: string;
}

export async function readFeed(request: FeedRequest): Promise<FeedAnswer> {
  const source = await withSourceKeys(await sourceOnTenant(request.sourceId, request.tenantId));
  const [device, suspended] = await Promise.all([askingDevice(source, request.query, request.nowSeconds), isSuspended(source, request.suspension, request.nowSeconds)]);
  const ctx = { source, baseUrl: request.baseUrl, host: request.host, device, nowSeconds: request.nowSeconds, linkTtlSeconds: request.linkTtlSeconds };
  const document = suspended ? buildSuspendedFeed(ctx, request.lang) : device.blocked ? buildBlockedFeed(ctx, request.lang) : await buildFeed(ctx);
  return { document, encrypted: source.encrypt_enabled === 1, feedKey: source.feed_key };
}

export interface DownloadRequest {
  sourceId: string;
  tenantId: string;
  /** The path's app id; undefined when it was not a plain decimal number (an unknown app). */
  appId: number | undefined;
  /** The link's parameters, each undefined unless given exactly once (and `exp` unless in plain digits). */
  udid: string | undefined;
  exp: number | undefined;
  sig: string | undefined;
  nowSeconds: number;
  /** A suspended source (see `suspension` of the feed) refuses every link `source_suspended`. */
  suspension: SuspensionPolicy;
}

/**
 * Checks a download link and answers the origin URL it unlocks. The order is fixed and each refusal names
 * its reason: the signature (covering source, app, UDID and expiry), a link issued without a UDID, expiry,
 * then the device's standing with the source's owner (block list, disabled device), then the app itself
 * (unknown or unpublished → 404; locked unless this UDID unlocked the source and the unlock still runs).
 * The reserved app id of the blocked document's placeholder refuses `blocked` as soon as its link is genuine;
 * any genuine link of a suspended source (its owner's subscription ended past the grace period) refuses
 * `source_suspended` first.
 */
export async function checkDownload(request: DownloadRequest): Promise<string> {
  const source = await sourceOnTenant(request.sourceId, request.tenantId);
  const { appId, udid, exp, sig } = request;
  if (appId === undefined) throw new DomainError('app_not_found', 'app_not_found');
  const signed =
    udid !== undefined &&
    exp !== undefined &&
    sig !== undefined &&
    source.link_secret !== undefined &&
    isValidSignature(source.link_secret, { sourceId: source.source_id, appId, udid, exp }, sig);
  if (!signed) throw refuse('bad_signature');
  if (await isSuspended(source, request.suspension, request.nowSeconds)) throw refuse('source_suspended');
  if (appId === BLOCKED_APP_ID) throw refuse('blocked');
  if (udid === '') throw refuse('udid_required');
  if (exp < request.nowSeconds) throw refuse('link_expired');
  const standing = isUdidFormat(udid) ? await deviceStanding(source.source_id, udid) : NO_STANDING;
  if (standing.blocked) throw refuse('blocked');
  if (await isUdidDisabled(ownerOf(source), udid)) throw refuse('device_disabled');
  const app = await getApp(source.source_id, appId);
  if (!app || app.publish_status !== 'published') throw new DomainError('app_not_found', 'app_not_found');
  if (app.lock === 1 && !isUnlocked(standing, request.nowSeconds)) throw refuse('locked');
  return app.download_url;
}
