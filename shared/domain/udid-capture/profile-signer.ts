/** The tenant's profile signing identity, set by the operator: checked, then sealed like account secrets. */
import { deleteProfileSigner, getProfileSigner, putProfileSigner } from '../../db/repositories/udid-capture-repository';
import { seal } from '../../secrets/envelope-encryption';
import { describeSigner, type SignerSecret } from './profile';

export interface SignerView {
  subject: string;
  sha256: string;
  not_after: number;
}

/** Throws (with a reason) when the .p12 cannot be opened with the password or holds no private key. */
export async function setProfileSigner(tenantId: string, p12Base64: string, password: string, now: number): Promise<SignerView> {
  const described = describeSigner(p12Base64, password);
  const secret: SignerSecret = { p12: p12Base64, password };
  await putProfileSigner(tenantId, { sealed: await seal(secret), subject: described.subject, sha256: described.sha256, not_after: described.notAfter, updated_at: now });
  return { subject: described.subject, sha256: described.sha256, not_after: described.notAfter };
}

export async function profileSignerView(tenantId: string): Promise<SignerView | null> {
  const stored = await getProfileSigner(tenantId);
  return stored ? { subject: stored.subject, sha256: stored.sha256, not_after: stored.not_after } : null;
}

export function removeProfileSigner(tenantId: string): Promise<void> {
  return deleteProfileSigner(tenantId);
}
