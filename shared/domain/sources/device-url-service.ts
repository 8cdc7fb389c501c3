/** The owner's side of device-bound feed URLs: hand one out, or revoke it. */
import { validationError } from '../errors';
import { deviceFeedUrl, revokeDeviceKey } from './device-keys';
import { ownedSource } from './source-lookup';
import type { Actor } from './source';

function requireUdid(udid: string | undefined): string {
  if (!udid) throw validationError('invalid_value', ['udid']);
  return udid;
}

export async function ownedDeviceUrl(actor: Actor, sourceId: string, udid: string | undefined, baseUrl: string, now: number) {
  const source = await ownedSource(actor, sourceId);
  const device = requireUdid(udid);
  return { udid: device, url: await deviceFeedUrl(source, device, baseUrl, now) };
}

export async function revokeOwnedDeviceUrl(actor: Actor, sourceId: string, udid: string | undefined) {
  const source = await ownedSource(actor, sourceId);
  const device = requireUdid(udid);
  return { udid: device, revoked: await revokeDeviceKey(source.source_id, device) };
}
