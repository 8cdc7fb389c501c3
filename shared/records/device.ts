/**
 * The device model: one record per certificate, identified by `kid`. One UDID can have several
 * certificates (different pools, re-issues, forced adds); `kid` then picks one.
 *
 * Exports:
 * - `Device` — the stored record (every field below); `DeviceType`, `DeviceZt`, `DevicePool` — its enums,
 *   with `DEVICE_TYPES` and `DEVICE_ZT` as value lists for zod enums.
 * - `udidKey(udid)` — the case-insensitive form of a UDID used by the user+UDID index.
 * - `UDID_PATTERN` / `isUdidFormat(udid)` — 25 characters `XXXXXXXX-XXXXXXXXXXXXXXXX` or 40, hex.
 * - `KID_PATTERN`, `BEIZHU_MAX_CHARS`, `PNAME_MAX_CHARS` — the limits of a kid, a remark and a device name.
 * - `isOwnedBy(device, actor)` — a device belongs to a caller only when user AND tenant match.
 * - `statusView(device, statusName)` / `infoView(device)` / `listItemView(device)` — the allowlisted response
 *   shapes of the status, info and list endpoints (never the `.p12`, the profile, the owner, the tenant or
 *   the account).
 */
import type { Actor } from './source';

export const DEVICE_TYPES = ['iphone', 'ipad', 'mac'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Certificate status: normal (usable), processing (review pending), revoked, expired (membership ended), ineligible (Apple refused the device), failed (nothing was charged). */
export const DEVICE_ZT = ['normal', 'processing', 'revoked', 'expired', 'ineligible', 'failed'] as const;
export type DeviceZt = (typeof DEVICE_ZT)[number];

/** 0 = the tenant's public pool, 1 = the user's private pool. */
export type DevicePool = 0 | 1;

export interface Device {
  /** Certificate id (string, unique); the table's key. */
  kid: string;
  /** Numeric id the status response shows, from an atomic counter (`nextDeviceId`). */
  id: number;
  user_id: string;
  tenant_id: string;
  /** The UDID as the client sent it; matching uses `udidKey`. */
  udid: string;
  /** Device name (may be empty). */
  pname: string;
  type: DeviceType;
  /** Warranty tier (0 1 2 3 4 6). */
  shtype: number;
  zt: DeviceZt;
  /** Hosting account's membership expiry, epoch seconds; 0 when unknown. */
  ytime: number;
  enabled: boolean;
  /** Owner's remark. */
  beizhu: string;
  /** Base64 PKCS#12 of the account's distribution certificate. Secret: never in status/info responses. */
  p12: string;
  /** Base64 ad hoc profile listing the UDID; empty while a review is pending. Never in status/info. */
  mobileprovision: string;
  pool: DevicePool;
  /** Apple account (team) the device is registered on; empty for imported certificates. */
  account_id: string;
  /** When the certificate was added, epoch seconds. */
  addtime: number;
  /** App Store Connect device resource id; empty when unknown. */
  apple_device_id: string;
  /** Review-mode reservation this certificate came from; empty otherwise. */
  reservation_id: string;
}

/** A device without its certificate and profile: what ownership checks, status and info read (the two are most of the item). */
export type DeviceRecord = Omit<Device, 'p12' | 'mobileprovision'>;

/** The attributes of a `DeviceRecord`, listed once for the reads that project them. */
export const DEVICE_RECORD_FIELDS = ['kid', 'id', 'user_id', 'tenant_id', 'udid', 'pname', 'type', 'shtype', 'zt', 'ytime', 'enabled', 'beizhu', 'pool', 'account_id', 'addtime', 'apple_device_id', 'reservation_id'] as const satisfies readonly (keyof DeviceRecord)[];

/** UDIDs match case-insensitively: hex UDIDs arrive in either case. */
export function udidKey(udid: string): string {
  return udid.trim().toUpperCase();
}

// Both cases spelled out rather than the `i` flag: the OpenAPI document carries this pattern's source.
export const UDID_PATTERN = /^(?:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{16}|[0-9A-Fa-f]{40})$/;

/** Kids are used in URLs and logs: letters, digits, `-`, `_` and `.` only. */
export const KID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** The owner's remark (`beizhu`), as the add routes accept it, in code points. */
export const BEIZHU_MAX_CHARS = 200;

/** The device name (`pname`), in code points. */
export const PNAME_MAX_CHARS = 100;

export function isUdidFormat(udid: string): boolean {
  return UDID_PATTERN.test(udid);
}

export function isOwnedBy(device: Pick<Device, 'user_id' | 'tenant_id'>, actor: Actor): boolean {
  return device.user_id === actor.userId && device.tenant_id === actor.tenantId;
}

/** `yblack`: the legacy client's spelling of the enabled flag. */
export function yblack(enabled: boolean): 'Ysucc' | 'Yno' {
  return enabled ? 'Ysucc' : 'Yno';
}

/** The status response; `statusName` is the localized "enabled"/"disabled" the caller chose. */
export function statusView(device: DeviceRecord, statusName: string) {
  return {
    id: device.id,
    kid: device.kid,
    udid: device.udid,
    enabled: device.enabled,
    yblack: yblack(device.enabled),
    status_name: statusName,
    status_code: device.enabled ? 1 : 0,
  };
}

/** The info response: an allowlist, so new secret fields on the record never leak by default. */
export function infoView(device: DeviceRecord) {
  return {
    kid: device.kid,
    udid: device.udid,
    pname: device.pname,
    type: device.type,
    shtype: device.shtype,
    zt: device.zt,
    ytime: device.ytime,
    enabled: device.enabled,
    beizhu: device.beizhu,
  };
}

/** An item of the device list: what info shows, plus the numeric id, the pool and the add time. */
export function listItemView(device: DeviceRecord) {
  return { id: device.id, ...infoView(device), pool: device.pool, addtime: device.addtime };
}
