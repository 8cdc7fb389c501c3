/**
 * The `.p12` a customer receives: the account's distribution certificate and private key, re-exported as a
 * new PKCS#12 under the tenant's p12 password, so the account's own password never leaves the platform.
 */
import forge from './forge';
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

