/**
 * What the device status and info endpoints do, free of HTTP: find the caller's device from kid/udid, read
 * it, change its enabled flag. Also answers the feed's and the download gate's question "is this UDID disabled?".
 */
import { setTimeout as delay } from 'node:timers/promises';
import { getDeviceRecord, listDevicesByUserUdid, setDeviceEnabledWithCopy } from '../../db/repositories/device-repository';
import { DomainError } from '../errors';
import { isOwnedBy, udidKey, type DeviceRecord } from '../../records/device';
import type { Actor } from '../../records/source';

export const DEVICE_ACTIONS = ['enable', 'disable', 'toggle'] as const;
export type DeviceAction = (typeof DEVICE_ACTIONS)[number];

/** kid and/or udid; at least one is present. */
export interface DeviceSelector {
  kid?: string | undefined;
  udid?: string | undefined;
}

// Missing and someone else's answer the same, so a token cannot probe which kids or UDIDs exist.
const notFound = () => new DomainError('device_not_found', 'device_not_found');

/** The actor's certificates for a UDID on the actor's tenant, newest first. */
async function ownedByUdid(actor: Actor, udid: string): Promise<DeviceRecord[]> {
  return (await listDevicesByUserUdid(actor.userId, udid)).filter((device) => isOwnedBy(device, actor));
}

/**
 * The actor's certificate `kid`, if it is theirs and (when a UDID is given too) is that UDID's. `known`: the
 * item already read in the request (null: read and absent), checked here like one read now.
 */
async function ownedByKid(actor: Actor, kid: string, udid: string | undefined, known?: DeviceRecord | null): Promise<DeviceRecord | undefined> {
  const device = known === undefined ? await getDeviceRecord(kid) : (known ?? undefined);
  if (!device || !isOwnedBy(device, actor)) return undefined;
  if (udid !== undefined && udidKey(udid) !== udidKey(device.udid)) return undefined;
  return device;
}

/**
 * The one device the selector names (`known`: the certificate `kid` names, already read in the request). `kid` decides when given (a `udid` that does not match it → 100);
 * a UDID alone must name exactly one certificate (several → 21, with their kids so the caller can choose).
 */
export async function findOwnedDevice(actor: Actor, selector: DeviceSelector, known?: DeviceRecord | null): Promise<DeviceRecord> {
  if (selector.kid !== undefined) {
    const device = await ownedByKid(actor, selector.kid, selector.udid, known);
    if (!device) throw notFound();
    return device;
  }
  if (selector.udid === undefined) throw new DomainError('device_selector_missing', 'device_selector_missing');
  const devices = await ownedByUdid(actor, selector.udid);
  const [only, ...others] = devices;
  if (!only) throw notFound();
  if (others.length > 0) throw new DomainError('device_ambiguous', 'device_ambiguous', { data: { kids: devices.map((d) => d.kid) } });
  // The index is eventually consistent; the enabled flag is read again from the item itself.
  const fresh = await getDeviceRecord(only.kid);
  if (!fresh || !isOwnedBy(fresh, actor)) throw notFound();
  return fresh;
}

const MAX_TOGGLE_ATTEMPTS = 64;

/**
 * Applies the action with one conditional transaction (the certificate, its owner's copy of "disabled" and its
 * owner's count of disabled devices). Every action writes on the condition that the value is still what it read
 * (a toggle writes "not what I read"); when another request changed it first, it reads again and retries, so N
 * concurrent toggles leave exactly N flips and the count follows every one.
 */
export async function changeDeviceStatus(actor: Actor, selector: DeviceSelector, action: DeviceAction, known?: DeviceRecord | null): Promise<DeviceRecord> {
  const guard = { userId: actor.userId, tenantId: actor.tenantId };
  // The certificate is read first (or was, with the token): its UDID keys the owner's copy of "disabled", written in the same transaction.
  let device = await findOwnedDevice(actor, selector, known);
  for (let attempt = 1; attempt <= MAX_TOGGLE_ATTEMPTS; attempt++) {
    // Conditioned on the value read, so the owner's count of disabled devices moves exactly when the value does.
    const next = action === 'toggle' ? !device.enabled : action === 'enable';
    const updated = await setDeviceEnabledWithCopy(device, next, { ...guard, expected: device.enabled });
    if (updated) return updated;
    const reread = await getDeviceRecord(device.kid);
    if (!reread || !isOwnedBy(reread, actor)) throw notFound();
    device = reread;
    // A little jitter spreads the losers of a race so they do not collide again in lockstep.
    await delay(Math.random() * Math.min(50, 2 ** attempt));
  }
  throw new DomainError('unavailable', 'internal_error');
}

/**
 * Whether the source owner disabled any certificate of this UDID, which then may not install: the owner
 * disabled that UDID in some form, and no other certificate of it lifts that. Devices the owner does not
 * have are not withheld (the feed is public). Read from the items themselves, as the index may lag.
 */
export async function isUdidDisabled(owner: Actor, udid: string): Promise<boolean> {
  const devices = await ownedByUdid(owner, udid);
  if (devices.length === 0) return false;
  const fresh = await Promise.all(devices.map((d) => getDeviceRecord(d.kid)));
  return fresh.some((d) => d !== undefined && isOwnedBy(d, owner) && !d.enabled);
}

/** The owner's certificate `kid`, if it is theirs. */
export function ownedDevice(owner: Actor, kid: string): Promise<DeviceRecord | undefined> {
  return ownedByKid(owner, kid, undefined);
}
