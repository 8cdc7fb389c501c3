import { CompactEncrypt } from 'jose';

/** The JWE header of an encrypted feed: the source key used directly, AES-256-GCM. */
export const FEED_JWE = { alg: 'dir', enc: 'A256GCM' } as const;

/** The feed as a JWE compact serialization under the source's 32-byte key (base64url). */
export function encryptFeed(json: string, feedKey: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(json)).setProtectedHeader({ ...FEED_JWE, cty: 'json' }).encrypt(Buffer.from(feedKey, 'base64url'));
}
