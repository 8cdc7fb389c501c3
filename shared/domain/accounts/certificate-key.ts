/**
 * Which of a team's distribution certificates was issued for a private key of ours: how a certificate whose
 * answer was lost (a request cut off, a function that died) is found again. Node's crypto only, so the
 * reservation worker carries it without the PKCS#12 code.
 */
import { createPublicKey, X509Certificate } from 'node:crypto';
import type { AscClient } from '../../apple/asc-client';
import type { AscCertificate } from '../../apple/asc-resources';

/** Whether Apple's certificate (base64 DER) is the one issued for this private key. */
export function certificateIsForKey(certificateContent: string, privateKeyPem: string): boolean {
  try {
    const certificate = new X509Certificate(Buffer.from(certificateContent, 'base64'));
    const ours = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'der' });
    return certificate.publicKey.export({ type: 'spki', format: 'der' }).equals(ours);
  } catch {
    return false;
  }
}

/** The team's distribution certificate issued for `privateKeyPem`, if Apple lists one (Apple's errors are thrown). */
export async function certificateForKey(client: AscClient, privateKeyPem: string): Promise<AscCertificate | undefined> {
  return (await client.listDistributionCertificates()).find((c) => c.certificateContent && certificateIsForKey(c.certificateContent, privateKeyPem));
}
