/**
 * The Profile Service `.mobileconfig`: iOS installs it, asks the customer to confirm, then POSTs the asked
 * device attributes, signed by the device's identity, to `URL`. Signed with the tenant's profile signer when
 * the operator configured one (iOS then shows "Verified"), otherwise plain XML ("Not Verified").
 */
import { createHash, randomUUID } from 'node:crypto';
import forge from 'node-forge';
import { build } from 'plist';
import { openP12, type OpenedP12 } from '../../apple/p12-reader';
import { getProfileSigner, type StoredProfileSigner } from '../../db/repositories/udid-capture-repository';
import { open } from '../../secrets/envelope-encryption';

/** What the product needs from a device; IMEI and ICCID are not asked (nothing here uses them). */
export const DEVICE_ATTRIBUTES = ['UDID', 'PRODUCT', 'VERSION', 'SERIAL', 'DEVICE_NAME'] as const;
export const MOBILECONFIG_TYPE = 'application/x-apple-aspen-config';

export interface ProfileInput {
  tenantId: string;
  tenantName: string;
  callbackUrl: string;
  challenge: string;
  description: string;
}

export function profilePlist(input: ProfileInput): string {
  return build({
    PayloadContent: { URL: input.callbackUrl, DeviceAttributes: [...DEVICE_ATTRIBUTES], Challenge: input.challenge },
    PayloadOrganization: input.tenantName,
    PayloadDisplayName: input.tenantName,
    PayloadDescription: input.description,
    PayloadIdentifier: `udid-capture.${input.tenantId}`,
    PayloadUUID: randomUUID().toUpperCase(),
    PayloadVersion: 1,
    PayloadType: 'Profile Service',
  });
}

/** The sealed part of a stored signer. */
export interface SignerSecret {
  p12: string;
  password: string;
}

/** What the operator CLI stores for a tenant's signer, checked first: a certificate and its key. */
export function describeSigner(p12Base64: string, password: string): { subject: string; sha256: string; notAfter: number } {
  const opened = openP12(p12Base64, password);
  if (!opened.privateKey) throw new Error('the .p12 holds no private key');
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(opened.certificate)).getBytes(), 'binary');
  const subject = opened.certificate.subject.attributes.map((a) => `${a.shortName ?? a.name}=${String(a.value)}`).join(', ');
  return { subject, sha256: createHash('sha256').update(der).digest('hex'), notAfter: Math.floor(opened.certificate.validity.notAfter.getTime() / 1000) };
}

const openedSigners = new Map<string, { updatedAt: number; signer: Promise<OpenedP12> }>();

/** The tenant's signing identity, opened once per container (and again after `tenant set` replaced it). */
export async function tenantSigner(tenantId: string): Promise<OpenedP12 | undefined> {
  const stored: StoredProfileSigner | undefined = await getProfileSigner(tenantId);
  if (!stored) return undefined;
  const cached = openedSigners.get(tenantId);
  if (cached && cached.updatedAt === stored.updated_at) return cached.signer;
  const signer = open<SignerSecret>(stored.sealed).then((secret) => openP12(secret.p12, secret.password));
  openedSigners.set(tenantId, { updatedAt: stored.updated_at, signer });
  signer.catch(() => openedSigners.delete(tenantId));
  return signer;
}

/** A CMS SignedData (DER) of the profile by `signer`, carrying its certificate and chain. */
export function signProfile(xml: string, signer: OpenedP12): Buffer {
  if (!signer.privateKey) throw new Error('profile signer without a private key');
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(xml, 'utf8');
  p7.addCertificate(signer.certificate);
  for (const cert of signer.chain) p7.addCertificate(cert);
  p7.addSigner({
    key: signer.privateKey,
    certificate: signer.certificate,
    digestAlgorithm: forge.pki.oids.sha256!,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType!, value: forge.pki.oids.data! },
      { type: forge.pki.oids.messageDigest! },
      { type: forge.pki.oids.signingTime!, value: new Date() as unknown as string },
    ],
  });
  p7.sign();
  return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
}
