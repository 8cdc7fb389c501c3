/**
 * The distribution identity of a connected account, made by the service: an RSA key pair and a CSR for Apple
 * to sign, then the `.p12` of the key and the certificate Apple issued. The private key never leaves the
 * service: it is sealed with the account's other secrets. node-forge builds the CSR and the PKCS#12 (Node's
 * crypto makes neither); Node's crypto makes the key and the CSR's signature, which forge does slowly.
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import forge, { nativelySigningKey } from '../../apple/forge';

const generateKeyPairAsync = promisify(generateKeyPair);

export interface SigningRequest {
  privateKeyPem: string;
  csrPem: string;
}

/** A new 2048-bit RSA key and a CSR for it, signed with it (Apple reads only the key and the signature). */
export async function newSigningRequest(commonName: string): Promise<SigningRequest> {
  const { privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const key = nativelySigningKey(privateKey);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  csr.setSubject([{ name: 'commonName', value: commonName }]);
  csr.sign(key, forge.md.sha256.create());
  return { privateKeyPem: privateKey, csrPem: forge.pki.certificationRequestToPem(csr) };
}

/** The identity as the account stores it: a `.p12` of the key and certificate under a random password. */
export function identityP12(privateKeyPem: string, certificateContent: string): { p12Base64: string; p12Password: string } {
  const key = forge.pki.privateKeyFromPem(privateKeyPem);
  const certificate = forge.pki.certificateFromAsn1(forge.asn1.fromDer(forge.util.decode64(certificateContent)));
  const cn: unknown = certificate.subject.getField('CN')?.value;
  const p12Password = randomBytes(18).toString('base64url');
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [certificate], p12Password, {
    algorithm: '3des',
    ...(typeof cn === 'string' ? { friendlyName: cn } : {}),
  });
  return { p12Base64: forge.util.encode64(forge.asn1.toDer(asn1).getBytes()), p12Password };
}
