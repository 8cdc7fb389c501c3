/**
 * Who may keep a feed answer. The plain document read without a UDID (and without a kid) is the same for
 * every such reader: its links are the origin URLs where nothing is protected, or gate links bound to no
 * device (which refuse `udid_required`), stable within a link window. Shared caches (a CDN, the API's stage
 * cache) may hold it for the tenant's `feedMaxAgeSeconds`. Every other answer is one device's: a JWE is never
 * stored, a plain per-device document only privately.
 */
export interface FeedCacheInput {
  /** The answer is a JWE (`Accept: application/jose` on an encrypting source). */
  jose: boolean;
  /** The source protects its links (`encrypt_enabled` 1). */
  encrypted: boolean;
  /** The request named a device (`udid` or `kid`), whether or not it was usable. */
  personal: boolean;
  /** The tenant's `feedMaxAgeSeconds`. */
  maxAgeSeconds: number;
}

export function feedCacheControl({ jose, encrypted, personal, maxAgeSeconds }: FeedCacheInput): string {
  if (jose) return 'no-store';
  if (!personal) return `public, max-age=${maxAgeSeconds}`;
  return encrypted ? 'no-store' : 'private, max-age=60';
}

/** Bounds of the tenant's `feedMaxAgeSeconds`: 0 (every cache revalidates) to an hour. */
export const FEED_MAX_AGE_BOUNDS = { min: 0, max: 3600 } as const;
