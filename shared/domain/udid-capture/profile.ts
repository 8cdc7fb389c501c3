/**
 * The Profile Service `.mobileconfig`: iOS installs it, asks the customer to confirm, then POSTs the asked
 * device attributes, signed by the device's identity, to `URL`. Signed with the tenant's profile signer when
 * the operator configured one (iOS then shows "Verified"), otherwise plain XML ("Not Verified"). Signing uses
 * PKI.js over WebCrypto; the .p12 was opened on the operator side (profile-signer.ts), so no PKCS#12 or
 * node-forge code runs here.
 */
import { createHash, randomUUID, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import type { CryptoKey } from 'jose';
import { Attribute, Certificate, ContentInfo, EncapsulatedContentInfo, IssuerAndSerialNumber, SignedAndUnsignedAttributes, SignedData, SignerInfo } from 'pkijs';
import { getProfileSigner } from '../../db/repositories/udid-capture-repository';
import { open } from '../../secrets/envelope-encryption';

/** What the product needs from a device; IMEI and ICCID are not asked (nothing here uses them). */
export const DEVICE_ATTRIBUTES = ['UDID', 'PRODUCT', 'VERSION', 'SERIAL', 'DEVICE_NAME'] as const;
export const MOBILECONFIG_TYPE = 'application/x-apple-aspen-config';

const OID = { data: '1.2.840.113549.1.7.1', signedData: '1.2.840.113549.1.7.2', contentType: '1.2.840.113549.1.9.3', messageDigest: '1.2.840.113549.1.9.4', signingTime: '1.2.840.113549.1.9.5' };

export interface ProfileInput {
  tenantId: string;
  tenantName: string;
  callbackUrl: string;
  challenge: string;
  description: string;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const str = (value: string) => `<string>${escapeXml(value)}</string>`;

/** The profile as an XML plist (a fixed shape: a few lines instead of an XML library in the bundle). */
export function profilePlist(input: ProfileInput): string {
  const attributes = DEVICE_ATTRIBUTES.map((a) => `      ${str(a)}`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>PayloadContent</key>
  <dict>
    <key>URL</key>
    ${str(input.callbackUrl)}
    <key>DeviceAttributes</key>
    <array>
${attributes}
    </array>
    <key>Challenge</key>
    ${str(input.challenge)}
  </dict>
  <key>PayloadOrganization</key>
  ${str(input.tenantName)}
  <key>PayloadDisplayName</key>
  ${str(input.tenantName)}
  <key>PayloadDescription</key>
  ${str(input.description)}
  <key>PayloadIdentifier</key>
  ${str(`udid-capture.${input.tenantId}`)}
  <key>PayloadUUID</key>
  ${str(randomUUID().toUpperCase())}
  <key>PayloadVersion</key>
  <integer>1</integer>
  <key>PayloadType</key>
  <string>Profile Service</string>
</dict>
</plist>
`;
}

/** The sealed part of a stored signer: the private key (PKCS#8 DER) and the certificates, signer first. */
export interface SignerSecret {
  key_pkcs8: string;
  certificates: string[];
}

export interface ProfileSigner {
  key: CryptoKey;
  certificates: Certificate[];
}

const openedSigners = new Map<string, { updatedAt: number; signer: Promise<ProfileSigner> }>();

async function openSigner(secret: SignerSecret): Promise<ProfileSigner> {
  const key = await webcrypto.subtle.importKey('pkcs8', Buffer.from(secret.key_pkcs8, 'base64'), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  return { key: key as unknown as CryptoKey, certificates: secret.certificates.map((c) => Certificate.fromBER(new Uint8Array(Buffer.from(c, 'base64')))) };
}

/** The tenant's signing identity, opened once per container (and again after `tenant set` replaced it). */
export async function tenantSigner(tenantId: string): Promise<ProfileSigner | undefined> {
  const stored = await getProfileSigner(tenantId);
  if (!stored) return undefined;
  const cached = openedSigners.get(tenantId);
  if (cached && cached.updatedAt === stored.updated_at) return cached.signer;
  const signer = open<SignerSecret>(stored.sealed).then(openSigner);
  openedSigners.set(tenantId, { updatedAt: stored.updated_at, signer });
  signer.catch(() => openedSigners.delete(tenantId));
  return signer;
}

/** A CMS SignedData (DER) of the profile by `signer`, with signed attributes and the certificate chain. */
export async function signProfile(xml: string, signer: ProfileSigner): Promise<Buffer> {
  const content = Buffer.from(xml, 'utf8');
  const cert = signer.certificates[0]!;
  const attribute = (type: string, value: asn1js.AsnType) => new Attribute({ type, values: [value] });
  const signerInfo = new SignerInfo({
    version: 1,
    sid: new IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    signedAttrs: new SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
        attribute(OID.signingTime, new asn1js.UTCTime({ valueDate: new Date() })),
        attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: new Uint8Array(createHash('sha256').update(content).digest()) })),
      ],
    }),
  });
  const signed = new SignedData({
    version: 1,
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: OID.data, eContent: new asn1js.OctetString({ valueHex: new Uint8Array(content) }) }),
    signerInfos: [signerInfo],
    certificates: signer.certificates,
  });
  await signed.sign(signer.key, 0, 'SHA-256');
  const info = new ContentInfo({ contentType: OID.signedData, content: signed.toSchema(true) });
  return Buffer.from(info.toSchema().toBER(false));
}
