/**
 * The two parts of node-forge the product hands to Node's crypto (`shared/apple/forge.ts`) give what forge's
 * own code gives: the PKCS#12 key derivation byte for byte, and RSA signatures that verify as PKCS#1 v1.5.
 * (The `.p12` files built on them are also opened by OpenSSL in `p12-export.test.ts` and the account tests.)
 */
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import forge, { nativelySigningKey, pkcs12Key } from '../../shared/apple/forge';

/**
 * [id, password, salt, iterations, bytes, hash, key]: the first five are Bouncy Castle's PKCS12 test vectors,
 * the rest what forge 1.4.3's own `generatePkcs12Key` answered (empty and absent passwords, characters outside
 * ASCII, more than one hash block, SHA-256, a password longer than a block).
 */
const VECTORS: [number, string | null, string, number, number, 'sha1' | 'sha256', string][] = [
  [1, 'smeg', '0A58CF64530D823F', 1, 24, 'sha1', '8AAAE6297B6CB04642AB5B077851284EB7128F1A2A7FBCA3'],
  [2, 'smeg', '0A58CF64530D823F', 1, 8, 'sha1', '79993DFE048D3B76'],
  [3, 'smeg', '3D83C0E4546AC140', 1, 20, 'sha1', '8D967D88F6CAA9D714800AB3D48051D63F73A312'],
  [1, 'queeg', '05DEC959ACFF72F7', 1000, 24, 'sha1', 'ED2034E36328830FF09DF1E1A07DD357185DAC0D4F9EB3D4'],
  [2, 'queeg', '05DEC959ACFF72F7', 1000, 8, 'sha1', '11DEDAD7758D4860'],
  [1, '', '0A58CF64530D823F', 2048, 24, 'sha1', '472464EE1922A0549FB3AF1535EFC7DD4F9B197528E6A1A5'],
  [1, null, '0A58CF64530D823F', 3, 24, 'sha1', 'C67EFD08EB768C19C7F340C2604E4428C2F765B288FAFE88'],
  [1, 'pässwörd €', '00112233445566778899', 2048, 48, 'sha1', '527093C1FF68A60ADB85C59F9842C2C9C7C4E5E582B7A4127D50A37791BA195B96F875DCC03169CA3EF9E80ACCF596CC'],
  [3, 'secret', 'A1B2C3D4E5F60718', 2048, 32, 'sha256', '48BDFFC8F413CD42252BD8A5CA8136D716F0B8E611FF2C126C5D2641BB0E981D'],
  [1, 'x'.repeat(70), 'FFFFFFFFFFFFFFFF', 5, 60, 'sha1', 'C3C6A59AF905EC99D3C1213A21F80BA974543BBBF22233AFAB294B071F275BC53E37254D66B1DB49A4EAB0119F4803E38C02769749E687C17DB8940E'],
];

test.each(VECTORS)('PKCS#12 key derivation: id %i, password %j, salt %s, %i rounds, %i bytes of %s', (id, password, salt, rounds, bytes, hash, key) => {
  const saltBuffer = forge.util.createBuffer(forge.util.hexToBytes(salt));
  const derived = pkcs12Key(password, saltBuffer, id, rounds, bytes, hash === 'sha1' ? undefined : forge.md.sha256.create());
  expect(forge.util.bytesToHex(derived.getBytes()).toUpperCase()).toBe(key);
  // The salt is read, not consumed: forge reads it again for the IV after the key.
  expect(saltBuffer.length()).toBe(salt.length / 2);
});

test('forge derives with it: a .p12 written and read back through forge holds the same key and certificate', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const key = nativelySigningKey(privateKey);
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  certificate.serialNumber = '0a';
  certificate.setSubject([{ name: 'commonName', value: 'Round trip' }]);
  certificate.setIssuer([{ name: 'commonName', value: 'Round trip' }]);
  certificate.sign(key, forge.md.sha256.create());
  const der = forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [certificate], 'pässwörd', { algorithm: '3des' })).getBytes();
  const opened = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), true, 'pässwörd');
  const keyBag = opened.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!]![0]!;
  expect((keyBag.key as forge.pki.rsa.PrivateKey).n.equals(key.n)).toBe(true);
  expect(() => forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), true, 'wrong')).toThrow(/MAC/);
  // The certificate signed natively verifies with forge's own RSA.
  expect(certificate.verify(certificate)).toBe(true);
});

test.each(['sha256', 'sha1'] as const)('a natively signing key signs %s digests as PKCS#1 v1.5 that Node verifies; other schemes are refused', (hash) => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const key = nativelySigningKey(privateKey);
  const md = forge.md[hash].create();
  md.update('the signed text', 'utf8');
  const signature = Buffer.from(key.sign(md), 'binary');
  expect(verify(hash, Buffer.from('the signed text'), createPublicKey(publicKey), signature)).toBe(true);
  expect(verify(hash, Buffer.from('another text'), createPublicKey(publicKey), signature)).toBe(false);
  expect(() => key.sign(md, forge.pss.create({ md: forge.md.sha256.create(), mgf: forge.mgf.mgf1.create(forge.md.sha256.create()), saltLength: 20 }))).toThrow(/PKCS#1 v1.5/);
});
