/**
 * A CA hierarchy shaped like Apple's device CA — Root CA → iPhone Certification Authority → iPhone Device CA
 * (expired, like Apple's since 2014, and SHA-1 signed) → one certificate per device — so the Profile Service
 * callback is exercised exactly as real iPhones exercise it, without an iPhone.
 */
import { generateKeyPairSync } from 'node:crypto';
import forge, { nativelySigningKey } from '../../shared/apple/forge';
import { serialNumber } from '../asc-simulator/pki';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

export interface Identity {
  certificate: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

export interface DeviceCa {
  root: Identity;
  iphoneCa: Identity;
  deviceCa: Identity;
}

/** 1024-bit keys throughout (Apple's device keys are 1024-bit too): the hierarchy's shape matters here, and tests make several. */
function rsaKey(bits: number): forge.pki.rsa.PrivateKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: bits, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  return nativelySigningKey(privateKey);
}

function issue(
  subject: { CN: string; OU?: string },
  key: forge.pki.rsa.PrivateKey,
  issuer: Identity | 'self',
  options: { ca: boolean; from: Date; to: Date; sha1?: boolean },
): Identity {
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  certificate.serialNumber = serialNumber(12);
  certificate.validity.notBefore = options.from;
  certificate.validity.notAfter = options.to;
  const name = [{ name: 'commonName', value: subject.CN }, ...(subject.OU ? [{ name: 'organizationalUnitName', value: subject.OU }] : []), { name: 'organizationName', value: 'Device Simulator' }, { name: 'countryName', value: 'US' }];
  certificate.setSubject(name);
  certificate.setIssuer(issuer === 'self' ? name : issuer.certificate.subject.attributes);
  certificate.setExtensions(
    options.ca
      ? [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }, { name: 'subjectKeyIdentifier' }]
      : [{ name: 'basicConstraints', cA: false, critical: true }, { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true }, { name: 'subjectKeyIdentifier' }],
  );
  certificate.sign(issuer === 'self' ? key : issuer.key, options.sha1 ? forge.md.sha1.create() : forge.md.sha256.create());
  return { certificate, key };
}

/** A fresh hierarchy; `label` tells two apart (a foreign one for the untrusted-signer case). */
export function createDeviceCa(label = 'Device Simulator'): DeviceCa {
  const now = Date.now();
  const rootKey = rsaKey(1024);
  const root = issue({ CN: `${label} Root CA`, OU: 'Certification Authority' }, rootKey, 'self', { ca: true, from: new Date(now - 20 * YEAR_MS), to: new Date(now + 10 * YEAR_MS) });
  const iphoneCa = issue({ CN: `${label} iPhone Certification Authority`, OU: 'Certification Authority' }, rsaKey(1024), root, { ca: true, from: new Date(now - 19 * YEAR_MS), to: new Date(now + 5 * YEAR_MS) });
  // Expired years ago and SHA-1, as Apple's "iPhone Device CA" is: the verifier must not check dates.
  const deviceCa = issue({ CN: `${label} iPhone Device CA`, OU: 'Certification Authority' }, rsaKey(1024), iphoneCa, { ca: true, from: new Date(now - 19 * YEAR_MS), to: new Date(now - 12 * YEAR_MS), sha1: true });
  return { root, iphoneCa, deviceCa };
}

/** A device's identity under the hierarchy (its CN is the UDID, as Apple's device certificates carry it). */
export function issueDeviceIdentity(ca: DeviceCa, udid: string): Identity {
  const now = Date.now();
  return issue({ CN: udid }, rsaKey(1024), ca.deviceCa, { ca: false, from: new Date(now - YEAR_MS), to: new Date(now - YEAR_MS / 2), sha1: true });
}

/** A device identity signed by its own key: what a forger without Apple's CA can make. */
export function selfSignedIdentity(udid: string): Identity {
  const now = Date.now();
  return issue({ CN: udid }, rsaKey(1024), 'self', { ca: true, from: new Date(now - YEAR_MS), to: new Date(now + YEAR_MS) });
}

export const certificatePem = (identity: Identity) => forge.pki.certificateToPem(identity.certificate);

export function toStored(ca: DeviceCa): Record<string, { cert: string; key: string }> {
  const out: Record<string, { cert: string; key: string }> = {};
  for (const [name, identity] of Object.entries(ca)) out[name] = { cert: forge.pki.certificateToPem(identity.certificate), key: forge.pki.privateKeyToPem(identity.key) };
  return out;
}

export function fromStored(stored: Record<string, { cert: string; key: string }>): DeviceCa {
  const load = (name: string): Identity => ({ certificate: forge.pki.certificateFromPem(stored[name]!.cert), key: forge.pki.privateKeyFromPem(stored[name]!.key) });
  return { root: load('root'), iphoneCa: load('iphoneCa'), deviceCa: load('deviceCa') };
}
