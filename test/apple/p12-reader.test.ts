// Reading distribution .p12 files: with the password, without it, and with the issuing chain inside.
import forge from '../../shared/apple/forge';
import { P12ReadError, readP12 } from '../../shared/apple/p12-reader';
import {
  certificateAuthority,
  issueDistributionIdentity,
  type DistributionIdentity,
} from '../../infra/asc-simulator/pki';

const notAfter = new Date('2031-05-06T07:08:09Z');
let identity: DistributionIdentity;

beforeAll(async () => {
  identity = await issueDistributionIdentity(await certificateAuthority(), { teamId: 'TEAM654321', teamName: 'Zed', notAfter });
});

test('opens with its password: the certificate, its key, its name and expiry', () => {
  const contents = readP12(identity.p12Base64, identity.p12Password);
  expect(contents).toEqual({
    certificatePem: expect.stringMatching(/^-----BEGIN CERTIFICATE-----/),
    hasPrivateKey: true,
    subjectCN: 'iPhone Distribution: Zed (TEAM654321)',
    notAfter,
  });
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(forge.pki.certificateFromPem(contents.certificatePem))).getBytes(), 'binary');
  expect(der.equals(identity.certificateDer)).toBe(true);
});

test('a wrong password is a P12ReadError', () => {
  expect(() => readP12(identity.p12Base64, 'wrong')).toThrow(P12ReadError);
  expect(() => readP12(identity.p12Base64, '')).toThrow(/wrong password/);
});

test('something that is not PKCS#12 is a P12ReadError', () => {
  expect(() => readP12(Buffer.from('hello').toString('base64'), 'x')).toThrow(P12ReadError);
});

test('with the CA certificate stored first, the identity certificate is still the one returned', async () => {
  const authority = await certificateAuthority();
  const original = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.decode64(identity.p12Base64)), identity.p12Password);
  const key = original.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag ?? '' })[forge.pki.oids.pkcs8ShroudedKeyBag ?? '']?.[0]?.key;
  const certificate = forge.pki.certificateFromPem(readP12(identity.p12Base64, identity.p12Password).certificatePem);
  const withChain = forge.pkcs12.toPkcs12Asn1(key ?? null, [authority.certificate, certificate], 'pw', { algorithm: '3des' });
  const base64 = forge.util.encode64(forge.asn1.toDer(withChain).getBytes());

  expect(readP12(base64, 'pw').subjectCN).toBe('iPhone Distribution: Zed (TEAM654321)');
});

test('a certificate-only .p12 says it has no private key', () => {
  const certificate = forge.pki.certificateFromPem(readP12(identity.p12Base64, identity.p12Password).certificatePem);
  const certOnly = forge.pkcs12.toPkcs12Asn1(null, [certificate], 'pw', { algorithm: '3des' });
  const contents = readP12(forge.util.encode64(forge.asn1.toDer(certOnly).getBytes()), 'pw');
  expect(contents).toMatchObject({ hasPrivateKey: false, subjectCN: 'iPhone Distribution: Zed (TEAM654321)' });
});
