/**
 * The encrypted feed is written with Node's AES-GCM rather than jose's encrypter (see feed-jwe.ts): what it
 * writes must be a JWE that a standard library opens, and only with the source's key.
 */
import { randomBytes } from 'node:crypto';
import { compactDecrypt, decodeProtectedHeader } from 'jose';
import { encryptFeed } from '../../shared/domain/sources/feed-jwe';

const document = JSON.stringify({ name: 'Demo Shop', apps: [{ name: 'Player', localizedDescription: 'Plays media — 再生 ✓' }] });

test('jose opens it with the source key: dir, A256GCM, cty json, the document byte for byte', async () => {
  const key = randomBytes(32);
  const jwe = encryptFeed(document, key.toString('base64url'));
  expect(jwe.split('.').map((part) => part.length > 0)).toEqual([true, false, true, true, true]);
  expect(decodeProtectedHeader(jwe)).toEqual({ alg: 'dir', enc: 'A256GCM', cty: 'json' });
  const { plaintext, protectedHeader } = await compactDecrypt(jwe, key);
  expect(protectedHeader).toEqual({ alg: 'dir', enc: 'A256GCM', cty: 'json' });
  expect(new TextDecoder().decode(plaintext)).toBe(document);
});

test('another key, an altered header or an altered ciphertext do not open; every encryption has a fresh IV', async () => {
  const key = randomBytes(32);
  const jwe = encryptFeed(document, key.toString('base64url'));
  await expect(compactDecrypt(jwe, randomBytes(32))).rejects.toThrow();
  const [header, , iv, ciphertext, tag] = jwe.split('.');
  const otherHeader = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM' })).toString('base64url');
  await expect(compactDecrypt([otherHeader, '', iv, ciphertext, tag].join('.'), key)).rejects.toThrow();
  const flipped = Buffer.from(ciphertext!, 'base64url');
  flipped[0]! ^= 1;
  await expect(compactDecrypt([header, '', iv, flipped.toString('base64url'), tag].join('.'), key)).rejects.toThrow();
  // A fresh IV each time: the same document never encrypts to the same text.
  expect(encryptFeed(document, key.toString('base64url'))).not.toBe(jwe);
});

test('a key that is not 32 bytes is refused', () => {
  expect(() => encryptFeed(document, randomBytes(16).toString('base64url'))).toThrow();
});
