/**
 * Download links through the gate: `…/api/rjy/<source>/apps/<app>/download?d=&exp=&sig=`, where `d` is the
 * sealed device reference (device-ref.ts: never the UDID in clear) and `sig` an HMAC-SHA256 over source,
 * app, device reference and expiry under the source's own secret. A link bound to no device (the feed was
 * read without one) is still signed, so the gate can say exactly why it refuses.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface LinkClaims {
  sourceId: string;
  appId: number;
  /** The sealed device reference, or '' when the feed was read without a device. */
  device: string;
  /** Unix seconds. */
  exp: number;
  /**
   * The app — every release of it — was locked when the feed issued the link (`l=1`). Signed with the rest, so
   * the gate holds an older release of a locked app to the lock without reading the other releases.
   */
  locked?: boolean | undefined;
}

/** The app id of the placeholder a blocked device sees: no app has it, and the gate refuses it `blocked`. */
export const BLOCKED_APP_ID = 0;

export function gatePath(sourceId: string, appId: number): string {
  return `/api/rjy/${sourceId}/apps/${appId}/download`;
}

export function linkSignature(secret: string, claims: LinkClaims): string {
  return createHmac('sha256', Buffer.from(secret, 'base64url'))
    // `locked` joins the signed claims only when set, so links issued before it existed still verify.
    .update(JSON.stringify(['device-ref', claims.sourceId, claims.appId, claims.device, claims.exp, ...(claims.locked ? ['lock:1'] : [])]))
    .digest('base64url');
}

export function isValidSignature(secret: string, claims: LinkClaims, sig: string): boolean {
  const expected = Buffer.from(linkSignature(secret, claims));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A link's expiry: the end of the current half-lifetime window plus half a lifetime, so a link lives between
 * half and all of `ttlSeconds`, and every feed read inside one window carries identical links (stable ETag).
 */
export function linkExpiry(nowSeconds: number, ttlSeconds: number): number {
  const half = Math.max(1, Math.floor(ttlSeconds / 2));
  return Math.floor(nowSeconds / half) * half + ttlSeconds;
}

export function gateUrl(baseUrl: string, secret: string, claims: LinkClaims): string {
  const query = new URLSearchParams({ d: claims.device, exp: String(claims.exp), ...(claims.locked ? { l: '1' } : {}), sig: linkSignature(secret, claims) });
  return `${baseUrl}${gatePath(claims.sourceId, claims.appId)}?${query.toString()}`;
}
