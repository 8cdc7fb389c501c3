/**
 * The certificates a device's signer must chain to (Apple's device CA hierarchy when deployed). The operator
 * installs them with the CLI; they are the deployment's, not a tenant's.
 */
import { X509Certificate } from 'node:crypto';
import { deleteTrustAnchor, listTrustAnchors, putTrustAnchor, type StoredTrustAnchor } from '../../db/repositories/udid-capture-repository';

export interface AnchorView {
  sha256: string;
  subject: string;
  not_after: string;
  added_at: number;
}

function view(stored: StoredTrustAnchor): AnchorView {
  const cert = new X509Certificate(Buffer.from(stored.der_base64, 'base64'));
  return { sha256: stored.sha256, subject: stored.subject, not_after: cert.validTo, added_at: stored.added_at };
}

/** A PEM or DER certificate file; refused unless it is a CA certificate (an anchor issues, it never signs answers). */
export async function addTrustAnchor(file: Buffer, now: number): Promise<AnchorView> {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(file);
  } catch {
    throw new Error('not a certificate (PEM or DER)');
  }
  if (!cert.ca) throw new Error('not a CA certificate (basicConstraints CA:TRUE): a trust anchor must be an issuing CA');
  const stored: StoredTrustAnchor = {
    sha256: cert.fingerprint256.replace(/:/g, '').toLowerCase(),
    subject: cert.subject.replace(/\n/g, ', '),
    der_base64: cert.raw.toString('base64'),
    added_at: now,
  };
  await putTrustAnchor(stored);
  return view(stored);
}

export async function trustAnchorViews(): Promise<AnchorView[]> {
  return (await listTrustAnchors()).map(view);
}

export async function removeTrustAnchor(sha256: string): Promise<boolean> {
  return deleteTrustAnchor(sha256.replace(/:/g, '').toLowerCase());
}

/** The anchors' DER, for verifying a device's answer. */
export async function trustAnchorsDer(): Promise<Uint8Array[]> {
  return (await listTrustAnchors()).map((a) => new Uint8Array(Buffer.from(a.der_base64, 'base64')));
}
