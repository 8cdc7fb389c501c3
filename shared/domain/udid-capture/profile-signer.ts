/**
 * The tenant's profile signing identity, set by the operator: the .p12 is opened HERE, on the operator side,
 * and only its key (PKCS#8) and certificates are sealed like account secrets, so the functions that sign
 * profiles carry no PKCS#12 code.
 */
import { createHash } from 'node:crypto';
import forge from '../../apple/forge';
import { openP12 } from '../../apple/p12-reader';
import { deleteProfileSigner, getProfileSigner, putProfileSigner } from '../../db/repositories/udid-capture-repository';
import { seal } from '../../secrets/envelope-encryption';
import type { SignerSecret } from './profile';

export interface SignerView {
  subject: string;
  sha256: string;
  not_after: number;
}

const der = (cert: forge.pki.Certificate) => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');

/** Throws (with a reason) when the .p12 cannot be opened with the password or holds no RSA private key. */
export async function setProfileSigner(tenantId: string, p12Base64: string, password: string, now: number): Promise<SignerView> {
  const opened = openP12(p12Base64, password);
  if (!opened.privateKey) throw new Error('the .p12 holds no private key');
  const pkcs8 = forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(opened.privateKey));
  const secret: SignerSecret = {
    key_pkcs8: Buffer.from(forge.asn1.toDer(pkcs8).getBytes(), 'binary').toString('base64'),
    certificates: [opened.certificate, ...opened.chain].map((c) => der(c).toString('base64')),
  };
  const view: SignerView = {
    subject: opened.certificate.subject.attributes.map((a) => `${a.shortName ?? a.name}=${String(a.value)}`).join(', '),
    sha256: createHash('sha256').update(der(opened.certificate)).digest('hex'),
    not_after: Math.floor(opened.certificate.validity.notAfter.getTime() / 1000),
  };
  await putProfileSigner(tenantId, { sealed: await seal(secret), subject: view.subject, sha256: view.sha256, not_after: view.not_after, updated_at: now });
  return view;
}

export async function profileSignerView(tenantId: string): Promise<SignerView | null> {
  const stored = await getProfileSigner(tenantId);
  return stored ? { subject: stored.subject, sha256: stored.sha256, not_after: stored.not_after } : null;
}

export function removeProfileSigner(tenantId: string): Promise<void> {
  return deleteProfileSigner(tenantId);
}
