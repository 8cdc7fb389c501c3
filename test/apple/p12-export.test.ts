// Re-exporting a distribution .p12 under another password: same certificate and key, and the old password no
// longer opens it.
import forge from '../../shared/apple/forge';
import { exportP12 } from '../../shared/apple/p12-export';
import { openP12, P12ReadError, readP12 } from '../../shared/apple/p12-reader';
import { certificateAuthority, issueDistributionIdentity, type DistributionIdentity } from '../../infra/asc-simulator/pki';

let identity: DistributionIdentity;
let source: { p12Base64: string; p12Password: string };

beforeAll(async () => {
  identity = await issueDistributionIdentity(await certificateAuthority(), { teamId: 'TEAM777777', teamName: 'Seven', notAfter: new Date('2031-01-02T03:04:05Z') });
  source = { p12Base64: identity.p12Base64, p12Password: identity.p12Password };
});

test('the re-export holds the same certificate and private key, under the new password only', () => {
  const exported = exportP12(source, '1');
  const original = openP12(identity.p12Base64, identity.p12Password);
  const again = openP12(exported, '1');
  expect(forge.pki.certificateToPem(again.certificate)).toBe(forge.pki.certificateToPem(original.certificate));
  expect(again.privateKey && original.privateKey && again.privateKey.d.equals(original.privateKey.d)).toBe(true);
  expect(again.friendlyName).toBe('iPhone Distribution: Seven (TEAM777777)');
  expect(readP12(exported, '1')).toMatchObject({ hasPrivateKey: true, subjectCN: 'iPhone Distribution: Seven (TEAM777777)' });
  expect(() => readP12(exported, identity.p12Password)).toThrow(P12ReadError);
});

test('a source that cannot be opened, or has no key, is a P12ReadError that does not carry the password', () => {
  expect(() => exportP12({ ...source, p12Password: 'wrong-secret' }, '1')).toThrow(P12ReadError);
  try {
    exportP12({ ...source, p12Password: 'wrong-secret' }, '1');
  } catch (error) {
    expect(String((error as Error).message)).not.toContain('wrong-secret');
  }
  const certOnly = forge.pkcs12.toPkcs12Asn1(null, [openP12(identity.p12Base64, identity.p12Password).certificate], 'pw', { algorithm: '3des' });
  expect(() => exportP12({ p12Base64: forge.util.encode64(forge.asn1.toDer(certOnly).getBytes()), p12Password: 'pw' }, '1')).toThrow(/no private key/);
});
