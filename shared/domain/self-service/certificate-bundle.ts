/**
 * The customer's download: one zip a person can read without help — `certificate.p12`, `profile.mobileprovision`
 * and `password.txt` — for a certificate of the proven device only.
 */
import { ZipFile } from 'yazl';
import { getCertificate } from '../../db/repositories/self-service-repository';
import { udidKey } from '../../records/device';
import { DomainError } from '../errors';
import type { Tenant } from '../../records/tenant';
import { bundleName } from './bundle-name';
import type { ProvenDevice } from './proof';

export interface CertificateBundle {
  fileName: string;
  zip: Buffer;
}


function zipOf(files: readonly { name: string; data: Buffer }[], mtime: Date): Promise<Buffer> {
  const zip = new ZipFile();
  for (const file of files) zip.addBuffer(file.data, file.name, { mtime, mode: 0o100644 });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/**
 * The zip of `kid`, when it is a certificate of the proven device on this tenant, usable, and not disabled by
 * its owner. The password is
 * the tenant's `.p12` password, under which the certificate was issued. `passwordLine` words the text file.
 */
export async function certificateBundle(device: ProvenDevice, tenant: Tenant, kid: string, passwordLine: (password: string) => string): Promise<CertificateBundle> {
  const certificate = await getCertificate(kid);
  if (!certificate || certificate.tenant_id !== tenant.tenantId || udidKey(certificate.udid) !== udidKey(device.udid)) {
    throw new DomainError('download_refused', 'certificate_not_found', { fields: ['kid'] });
  }
  // Disabled by its owner: the same refusal, whatever else the certificate's state.
  if (certificate.enabled === false) throw new DomainError('conflict', 'certificate_disabled');
  if (certificate.zt !== 'normal' || !certificate.p12 || !certificate.mobileprovision) throw new DomainError('conflict', 'certificate_not_ready');
  const password = tenant.settings.p12Password;
  const zip = await zipOf(
    [
      { name: 'certificate.p12', data: Buffer.from(certificate.p12, 'base64') },
      { name: 'profile.mobileprovision', data: Buffer.from(certificate.mobileprovision, 'base64') },
      { name: 'password.txt', data: Buffer.from(`${passwordLine(password)}\r\n`, 'utf8') },
    ],
    new Date(certificate.addtime * 1000),
  );
  return { fileName: bundleName(certificate.pname, device.udid, certificate.kid), zip };
}
