/**
 * The feed and the gate in one round trip (issue 41). A UDID's standing (block, unlock, the owner's copy of
 * "disabled") is keyed by the UDID and by the source's owner, and a device key or a gate link names its UDID
 * only through what the first read returns (the key's item; the source's link secret that opens the link). But
 * those bindings are fixed: a source's owner never changes, a device key names one UDID for its whole life (a
 * new key is a new item; revoking deletes it), and a sealed link opens to the same UDID under the same secret.
 * So this instance remembers them, and the next request reads the standing it expects in its first batch; the
 * caller uses it only if that same batch shows the UDID and owner it was read for (the key's item still names
 * that UDID, the source still has that owner) and reads it again otherwise. Nothing read ahead is ever
 * trusted unchecked, and everything in the batch is strongly consistent, so a block is seen at once.
 */
import type { StandingRead } from '../../db/repositories/feed-read-repository';

/** Source id -> its owner. */
const owners = new Map<string, string>();
/** `<source id> <what the request names>` -> the UDID it named (and whether the gate reads its key). */
const named = new Map<string, { udid: string; withDeviceKey: boolean }>();
/** Bounds the maps on an instance that serves many sources and devices. */
const MAX_REMEMBERED = 10_000;

/**
 * The standing to read ahead for a request on `sourceId` naming `name` (a device key or a gate link, as
 * `remember` was told), or claiming `claimed` (a UDID in the query): none when this instance does not know.
 */
export function standingAhead(sourceId: string, name: string | undefined, claimed?: string): StandingRead | undefined {
  const ownerId = owners.get(sourceId);
  const device = name !== undefined ? named.get(`${sourceId} ${name}`) : claimed !== undefined ? { udid: claimed, withDeviceKey: false } : undefined;
  return ownerId && device ? { ownerId, ...device } : undefined;
}

/** What the first read showed: the source's owner and, when the request named its UDID by `name`, that UDID. */
export function rememberStanding(sourceId: string, ownerId: string, name?: string, udid?: string, withDeviceKey = false): void {
  if (owners.size >= MAX_REMEMBERED) owners.clear();
  owners.set(sourceId, ownerId);
  if (name === undefined) return;
  const key = `${sourceId} ${name}`;
  if (udid === undefined) return void named.delete(key);
  if (named.size >= MAX_REMEMBERED) named.clear();
  named.set(key, { udid, withDeviceKey });
}

/** The standing read ahead, when it was read for exactly this UDID and owner (and key need). */
export const aheadMatches = (read: StandingRead | undefined, udid: string, ownerId: string, withDeviceKey = false): boolean =>
  read !== undefined && read.udid === udid && read.ownerId === ownerId && (read.withDeviceKey ?? false) === withDeviceKey;
