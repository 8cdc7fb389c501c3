/** The owner's side of device-bound feed URLs: hand one out, or revoke it. */
import { validationError } from '../errors';
import { deviceFeedUrl, revokeDeviceKey } from './device-keys';
import { ownedSource } from './source-lookup';
import type { Actor, Source } from '../../records/source';
import { udidKey } from '../../records/device';
import { logger } from '../../logger';

function requireUdid(udid: string | undefined): string {
  if (!udid) throw validationError('invalid_value', ['udid']);
  return udid;
}

export async function ownedDeviceUrl(actor: Actor, sourceId: string, udid: string | undefined, baseUrl: string, now: number) {
  const source = await ownedSource(actor, sourceId);
  const device = requireUdid(udid);
  return { udid: device, url: await deviceFeedUrl(source, device, baseUrl, now) };
}

export async function revokeOwnedDeviceUrl(actor: Actor, sourceId: string, udid: string | undefined, now: number) {
  const source = await ownedSource(actor, sourceId);
  const device = requireUdid(udid);
  return { udid: device, revoked: await revokeDeviceKey(source.source_id, device, now) };
}

/**
 * The caller's source whose device feed URL an answer should carry (the add's and device info's
 * `source_id`); none when not asked. Checked before the answer's own work, so a wrong source changes nothing.
 */
export async function sourceForFeedUrl(actor: Actor, sourceId: string | undefined): Promise<Source | undefined> {
  return sourceId === undefined ? undefined : ownedSource(actor, sourceId);
}

/** What an answer carries about the device's feed URL: the URL, or why there is none. */
export type FeedUrlFields = { feed_url: string } | { feed_url_error: 'unavailable' } | Record<string, never>;

/**
 * `feed_url`: the device's own feed URL on `source`, for an answer that already happened (a delivered add).
 * Issuing the key must never fail that answer, so a failure is reported in `feed_url_error` instead.
 */
export async function feedUrlFields(source: Source | undefined, udid: string, baseUrl: string, now: number): Promise<FeedUrlFields> {
  if (!source) return {};
  try {
    return { feed_url: await deviceFeedUrl(source, udidKey(udid), baseUrl, now) };
  } catch (error) {
    logger.warn('Could not issue a device key for an answer; answered without its feed URL', { sourceId: source.source_id, error: error as Error });
    return { feed_url_error: 'unavailable' };
  }
}
