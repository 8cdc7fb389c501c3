import { generateKeyPair, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import forge, { nativelySigningKey } from '../../shared/apple/forge';

const { asn1 } = forge;
const OID = {
  data: '1.2.840.113549.1.7.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  sha256: '2.16.840.1.101.3.4.2.1',
  userId: '0.9.2342.19200300.100.1.1',
};
const DAY_MS = 24 * 60 * 60 * 1000;

const generateKeyPairAsync = promisify(generateKeyPair);

async function newRsaKeyPem(): Promise<string> {
  const { privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return privateKey;
}

/** A certificate serial of `length` random bytes (hex), as the simulators issue them. */
export function serialNumber(length = 16): string {
  const bytes = randomBytes(length);
  // A positive INTEGER in its shortest DER form, as Apple's are: a first byte of 0 would be dropped by readers
  // (Node's X509Certificate says 07AB… for 0007AB…), so the serial they read would not be the one made.
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) || 0x01;
  return bytes.toString('hex');
}

function derOf(certificate: forge.pki.Certificate): Buffer {
  return Buffer.from(asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary');
}

export interface CertificateAuthority {
  certificate: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

async function createCertificateAuthority(): Promise<CertificateAuthority> {
  const key = nativelySigningKey(await newRsaKeyPem());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  certificate.serialNumber = serialNumber();
  certificate.validity.notBefore = new Date(Date.now() - DAY_MS);
  certificate.validity.notAfter = new Date(Date.now() + 10 * 365 * DAY_MS);
  const name = [
    { name: 'commonName', value: 'ASC Simulator Worldwide Developer Relations CA' },
    { name: 'organizationalUnitName', value: 'G3' },
    { name: 'organizationName', value: 'ASC Simulator' },
    { name: 'countryName', value: 'US' },
  ];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(key, forge.md.sha256.create());
  return { certificate, key };
}

let sharedAuthority: Promise<CertificateAuthority> | undefined;

/** One CA per process: its RSA key is the slow part of starting a simulator, and test suites start many. */
export function certificateAuthority(): Promise<CertificateAuthority> {
  sharedAuthority ??= createCertificateAuthority();
  return sharedAuthority;
}

export interface DistributionIdentity {
  certificateDer: Buffer;
  serialNumber: string;
  commonName: string;
  notAfter: Date;
  /** The certificate and its private key, as a Keychain export would hold them. */
  p12Base64: string;
  p12Password: string;
}

/** An "iPhone Distribution" certificate for `publicKey`, issued by the simulator CA. */
function distributionCertificate(
  authority: CertificateAuthority,
  publicKey: forge.pki.rsa.PublicKey,
  team: { teamId: string; teamName: string; notAfter: Date },
): { certificate: forge.pki.Certificate; commonName: string } {
  const commonName = `iPhone Distribution: ${team.teamName} (${team.teamId})`;
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = publicKey;
  certificate.serialNumber = serialNumber();
  certificate.validity.notBefore = new Date(Date.now() - 60_000);
  certificate.validity.notAfter = team.notAfter;
  certificate.setSubject([
    { type: OID.userId, value: team.teamId },
    { name: 'commonName', value: commonName },
    { name: 'organizationalUnitName', value: team.teamId },
    { name: 'organizationName', value: team.teamName },
    { name: 'countryName', value: 'US' },
  ]);
  certificate.setIssuer(authority.certificate.subject.attributes);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, critical: true },
    { name: 'extKeyUsage', codeSigning: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(authority.key, forge.md.sha256.create());
  return { certificate, commonName };
}

/** The team's "iPhone Distribution" certificate, issued by the simulator CA, and its `.p12`. */
export async function issueDistributionIdentity(
  authority: CertificateAuthority,
  team: { teamId: string; teamName: string; notAfter: Date },
): Promise<DistributionIdentity> {
  const key = forge.pki.privateKeyFromPem(await newRsaKeyPem());
  const { certificate, commonName } = distributionCertificate(authority, forge.pki.setRsaPublicKey(key.n, key.e), team);
  const p12Password = randomBytes(9).toString('base64url');
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [certificate], p12Password, {
    algorithm: '3des',
    friendlyName: commonName,
  });
  return {
    certificateDer: derOf(certificate),
    serialNumber: certificate.serialNumber.toUpperCase(),
    commonName,
    notAfter: team.notAfter,
    p12Base64: Buffer.from(asn1.toDer(p12).getBytes(), 'binary').toString('base64'),
    p12Password,
  };
}

/** Reads a CSR as Apple takes it (`csrContent`: the PEM, or its base64 DER body); undefined when it is not a valid, self-signed RSA CSR. */
function readCsr(csrContent: string): forge.pki.CertificateSigningRequest | undefined {
  try {
    const pem = csrContent.includes('-----BEGIN')
      ? csrContent
      : `-----BEGIN CERTIFICATE REQUEST-----\n${csrContent.replace(/\s+/g, '')}\n-----END CERTIFICATE REQUEST-----`;
    const csr = forge.pki.certificationRequestFromPem(pem);
    return csr.verify() && csr.publicKey ? csr : undefined;
  } catch {
    return undefined;
  }
}

/** A distribution certificate for the key of a CSR (Apple's `POST /v1/certificates`); undefined for a CSR it cannot read. */
export function issueCertificateFromCsr(
  authority: CertificateAuthority,
  csrContent: string,
  team: { teamId: string; teamName: string; notAfter: Date },
): Omit<DistributionIdentity, 'p12Base64' | 'p12Password'> | undefined {
  const csr = readCsr(csrContent);
  if (!csr) return undefined;
  const { certificate, commonName } = distributionCertificate(authority, csr.publicKey as forge.pki.rsa.PublicKey, team);
  return { certificateDer: derOf(certificate), serialNumber: certificate.serialNumber.toUpperCase(), commonName, notAfter: team.notAfter };
}

/** A CMS SignedData (DER) of `content`, signed by the CA with Apple's attribute set: type, time, digest. */
export function signCms(authority: CertificateAuthority, content: string): Buffer {
  const signedData = forge.pkcs7.createSignedData();
  signedData.content = forge.util.createBuffer(content, 'utf8');
  signedData.addCertificate(authority.certificate);
  signedData.addSigner({
    key: authority.key,
    certificate: authority.certificate,
    digestAlgorithm: OID.sha256,
    authenticatedAttributes: [
      { type: OID.contentType, value: OID.data },
      { type: OID.signingTime },
      { type: OID.messageDigest },
    ],
  });
  signedData.sign();
  return Buffer.from(asn1.toDer(signedData.toAsn1()).getBytes(), 'binary');
}

/** An App Store Connect API key: the `.p8` PEM the account keeps, the public half the simulator verifies with. */
export function newApiKey(): { privateKeyPem: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
}
