/**
 * A device is proven, not claimed. Each device gets its own feed URL carrying an opaque device key (24
 * random bytes, stored per source; revoking it ends the URL). Only a reader presenting a device key is the
 * device: its unlocks count and restrictions follow it. A bare `?udid=` is a claim anyone can type: it never
 * receives an unlocked app, and a source with `device_proof: required` answers it with the placeholder.
 */
import { randomBytes } from 'node:crypto';
import { deleteDeviceKey, putDeviceKey, readDeviceKey } from '../../db/repositories/device-key-repository';
import { sourceUrl, type Source } from '../../records/source';

/** The feed's query parameter that carries a device key. */
export const DEVICE_KEY_PARAM = 'dk';

/** 24 random bytes in base64url: 32 characters. */
export const DEVICE_KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;

const newDeviceKey = () => randomBytes(24).toString('base64url');

/**
 * The device key `udid` holds for the source, issuing one (once, whatever the concurrency) when it has none.
 * With `provenAt` (a customer's proof, not the owner): undefined when the owner revoked the device's URL at or
 * after that proof — what a customer held before a revocation never brings a key back; a new capture does.
 */
export async function deviceKeyFor(sourceId: string, udid: string, now: number, provenAt?: number): Promise<string | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const state = await readDeviceKey(sourceId, udid);
    if (provenAt !== undefined && state.revokedAt >= provenAt) return undefined;
    if (state.key) return state.key;
    const key = newDeviceKey();
    if (await putDeviceKey(sourceId, udid, key, now, state.revokedAt)) return key;
  }
  throw new Error(`Could not issue a device key for ${sourceId}`);
}

/**
 * THE device-bound feed URL of `udid` on `source`: `<baseUrl>/api/rjy/<source>/appstore?dk=<key>`. Every
 * place that hands a device its feed (the add's answer, the owner's device-url endpoint, UDID capture) calls
 * this. `baseUrl` is scheme, host and base path the caller was reached on; `udid` is upper-cased.
 */
export async function deviceFeedUrl(source: Pick<Source, 'source_id'>, udid: string, baseUrl: string, now: number): Promise<string> {
  return feedUrlWithKey(source, baseUrl, (await deviceKeyFor(source.source_id, udid, now))!);
}

/**
 * The device-bound feed URL for a customer's own proof (the session a capture's `st` opened), proven at
 * `provenAt`; undefined when the owner revoked the device's URL since (see `deviceKeyFor`).
 */
export async function provenDeviceFeedUrl(source: Pick<Source, 'source_id'>, udid: string, baseUrl: string, now: number, provenAt: number): Promise<string | undefined> {
  const key = await deviceKeyFor(source.source_id, udid, now, provenAt);
  return key && feedUrlWithKey(source, baseUrl, key);
}

function feedUrlWithKey(source: Pick<Source, 'source_id'>, baseUrl: string, key: string): string {
  return `${baseUrl}${sourceUrl(source.source_id)}?${DEVICE_KEY_PARAM}=${key}`;
}

/** Ends the UDID's device URL (the owner's next `deviceFeedUrl` issues a new key); whether it had one. */
export async function revokeDeviceKey(sourceId: string, udid: string, now: number): Promise<boolean> {
  return (await deleteDeviceKey(sourceId, udid, now)) !== undefined;
}
