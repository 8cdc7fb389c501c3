import { createCipheriv, randomBytes } from 'node:crypto';

/** The JWE header of an encrypted feed: the source key used directly, AES-256-GCM. */
export const FEED_JWE = { alg: 'dir', enc: 'A256GCM' } as const;

const PROTECTED_HEADER = Buffer.from(JSON.stringify({ ...FEED_JWE, cty: 'json' })).toString('base64url');

/**
 * The feed as a JWE compact serialization under the source's 32-byte key (base64url). With `dir` there is no
 * encrypted key, so the five parts are the protected header, an empty key, a 96-bit IV, the ciphertext and the
 * tag, with the ASCII header as AES-GCM's additional data (RFC 7516 §5.1, RFC 7518 §5.3). Node's AES-GCM does the
 * cryptography; jose's encrypter would bring every key-management algorithm it supports (RSA-OAEP, ECDH-ES,
 * PBES2, AES-KW: 19 KiB minified, the feed bundle's largest part after the SDK) for this one fixed pair. The
 * feed tests decrypt what this writes with jose's `compactDecrypt`.
 */
export function encryptFeed(json: string, feedKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(feedKey, 'base64url'), iv).setAAD(Buffer.from(PROTECTED_HEADER, 'ascii'));
  const ciphertext = Buffer.concat([cipher.update(json, 'utf8'), cipher.final()]);
  return [PROTECTED_HEADER, '', iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}
