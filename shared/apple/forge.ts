/**
 * node-forge as the product uses it (every module imports forge from here, never `node-forge` itself), with
 * its two slow parts handed to Node's crypto:
 * - **RSA signatures.** forge's are pure JavaScript, and where `navigator` exists (Node ≥ 21 defines one) it
 *   picks its slowest big-number multiply (`am1`). A 2048-bit signature (the CSR made on connecting or renewing
 *   an account) took 50–150 ms in plain Node 22 and over a second inside jest's module sandbox, where the
 *   account tests spent most of their CPU on it; `nativelySigningKey` signs with Node's RSA, about 5 ms.
 * - **The PKCS#12 key derivation** (RFC 7292, appendix B.2): 2,048 rounds of forge's JavaScript SHA-1 for
 *   each of a `.p12`'s key, IV and MAC. Node's hashes give the same bytes (a test holds it to known answers).
 * forge keeps everything else (the ASN.1, CSR and PKCS#12 structures, 3DES), which Node's crypto does not make.
 */
import { constants, createHash, createPrivateKey, hash, privateEncrypt } from 'node:crypto';
import forge from 'node-forge';

const SHA256_OID = '2.16.840.1.101.3.4.2.1';
const SHA1_OID = '1.3.14.3.2.26';

/**
 * The PKCS#12 key derivation of RFC 7292 B.2, as forge's `generatePkcs12Key` (same arguments, same result),
 * hashing with Node's crypto. `md` names the hash (SHA-1 when absent); only its algorithm and sizes are read.
 */
export function pkcs12Key(password: string | null | undefined, salt: forge.util.ByteStringBuffer, id: number, iterations: number, length: number, md?: forge.md.MessageDigest): forge.util.ByteStringBuffer {
  if (!(iterations >= 1)) throw new Error('PKCS#12 key derivation iteration count must be >= 1.');
  const algorithm = md?.algorithm ?? 'sha1';
  const u = md?.digestLength ?? 20;
  const v = md?.blockLength ?? 64;
  // The password as a BMPString with its two terminating zero bytes; none at all for no password.
  const pass = password == null ? Buffer.alloc(0) : Buffer.from(`${password}\0`, 'utf16le').swap16();
  const saltBytes = Buffer.from(salt.bytes(), 'binary');
  const repeat = (bytes: Buffer) => {
    const out = Buffer.alloc(v * Math.ceil(bytes.length / v));
    for (let i = 0; i < out.length; i++) out[i] = bytes[i % bytes.length]!;
    return out;
  };
  const diversifier = Buffer.alloc(v, id);
  const input = Buffer.concat([repeat(saltBytes), repeat(pass)]);
  const blocks: Buffer[] = [];
  for (let produced = 0; produced < length; produced += u) {
    let a = createHash(algorithm).update(diversifier).update(input).digest();
    // The one-shot hash: a Hash object per round cost more than the round's hashing.
    for (let round = 1; round < iterations; round++) a = hash(algorithm, a, 'buffer');
    blocks.push(a);
    // I_j = (I_j + B + 1) mod 2^(8v) for each v-byte block of I, B being A repeated to v bytes.
    const b = Buffer.alloc(v);
    for (let i = 0; i < v; i++) b[i] = a[i % u]!;
    for (let offset = 0; offset < input.length; offset += v) {
      let carry = 1;
      for (let i = v - 1; i >= 0; i--) {
        const sum = input[offset + i]! + b[i]! + carry;
        input[offset + i] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  return forge.util.createBuffer(Buffer.concat(blocks).subarray(0, length).toString('binary'));
}

// forge's PBE code reads `pki.pbe.generatePkcs12Key` at each call; its PKCS#12 code kept its own reference.
// (Neither is in forge's type declarations.)
(forge.pki as unknown as { pbe: { generatePkcs12Key: typeof pkcs12Key } }).pbe.generatePkcs12Key = pkcs12Key;
(forge.pkcs12 as unknown as { generateKey: typeof pkcs12Key }).generateKey = pkcs12Key;

const DIGEST_OIDS: Record<string, string> = { sha256: SHA256_OID, sha1: SHA1_OID };

/**
 * The forge private key of `pem` whose signatures (`key.sign(md)`, PKCS#1 v1.5, as forge's certificates,
 * CSRs and PKCS#7 ask for them) come from Node's RSA.
 */
export function nativelySigningKey(pem: string): forge.pki.rsa.PrivateKey {
  const key = forge.pki.privateKeyFromPem(pem);
  const nativeKey = createPrivateKey(pem);
  const { asn1 } = forge;
  key.sign = (md, scheme) => {
    const oid = typeof md === 'string' ? undefined : DIGEST_OIDS[md.algorithm];
    if (typeof md === 'string' || !oid || (scheme != null && scheme !== 'RSASSA-PKCS1-V1_5')) throw new Error('Only PKCS#1 v1.5 signatures of SHA-256 or SHA-1 digests are made natively');
    const digestInfo = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(oid).getBytes()),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
      ]),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, md.digest().getBytes()),
    ]);
    const input = Buffer.from(asn1.toDer(digestInfo).getBytes(), 'binary');
    return privateEncrypt({ key: nativeKey, padding: constants.RSA_PKCS1_PADDING }, input).toString('binary');
  };
  return key;
}

export default forge;
