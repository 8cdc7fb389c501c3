/**
 * The `.p12` a customer receives: the account's distribution certificate and private key, re-exported as a
 * new PKCS#12 under the tenant's p12 password, so the account's own password never leaves the platform.
 *
 * Opening and writing PKCS#12 in pure JavaScript costs tens of milliseconds, so `customerP12` keeps each
 * result in memory per (account, stored p12, password): warm adds on the same account reuse the bytes.
 */
import { createHash } from 'node:crypto';
import forge from 'node-forge';
import { openP12, P12ReadError } from './p12-reader';

/** The account's stored identity: its `.p12` (base64) and the password it is encrypted with. */
export interface StoredP12 {
  p12Base64: string;
  p12Password: string;
}

/**
 * Re-exports the identity (certificate, private key, any chain) of `source` as a new base64 PKCS#12 encrypted
 * under `password` (3DES with a SHA-1 MAC, which every iOS signing tool and Keychain opens). Throws
 * P12ReadError when the source cannot be opened or holds no private key.
 */
export function exportP12(source: StoredP12, password: string): string {
  const opened = openP12(source.p12Base64, source.p12Password);
  if (!opened.privateKey) throw new P12ReadError('The .p12 holds no private key');
  const cn: unknown = opened.certificate.subject.getField('CN')?.value;
  const friendlyName = opened.friendlyName ?? (typeof cn === 'string' ? cn : undefined);
  const asn1 = forge.pkcs12.toPkcs12Asn1(opened.privateKey, [opened.certificate, ...opened.chain], password, {
    algorithm: '3des',
    ...(friendlyName ? { friendlyName } : {}),
  });
  return forge.util.encode64(forge.asn1.toDer(asn1).getBytes());
}

/** Enough for every account a warm container serves, times a few tenant passwords; oldest dropped first. */
const CACHE_LIMIT = 256;
const cache = new Map<string, string>();

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The customer's `.p12` for an account's stored identity under `password`, from the in-memory cache when this
 * container already made it. The key is a hash, so neither password is kept in it.
 */
export function customerP12(accountId: string, source: StoredP12, password: string): string {
  const key = sha256(`${accountId}\0${sha256(source.p12Base64)}\0${password}`);
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const exported = exportP12(source, password);
  cache.set(key, exported);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  return exported;
}

/** Empties the cache (tests measure the cold path with it). */
export function clearCustomerP12Cache(): void {
  cache.clear();
}
