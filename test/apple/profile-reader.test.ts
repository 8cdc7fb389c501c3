// Reading .mobileprovision files: the plist fields, and a CMS signature that really is checked.
import forge from '../../shared/apple/forge';
import { decodeProvisioningProfile, ProvisioningProfileError } from '../../shared/apple/profile-reader';
import { readDer } from '../../shared/apple/der';
import { certificateAuthority, issueDistributionIdentity } from '../../infra/asc-simulator/pki';
import { buildProfilePlist, signedProfileContent, type ProfileContentInput } from '../../infra/asc-simulator/profiles';

let input: ProfileContentInput;
let content: string;

beforeAll(async () => {
  const authority = await certificateAuthority();
  const notAfter = new Date('2030-01-01T00:00:00Z');
  const identity = await issueDistributionIdentity(authority, { teamId: 'TEAM123456', teamName: 'Acme', notAfter });
  input = {
    teamId: 'TEAM123456',
    teamName: 'Acme',
    name: 'Ad Hoc <Acme> & co',
    uuid: 'A1B2C3D4-0000-4000-8000-000000000001',
    appIdName: 'Wildcard',
    bundleIdentifier: '*',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    expiresAt: new Date('2027-01-01T00:00:00Z'),
    udids: ['00008030-0011223344556677', 'a'.repeat(40)],
    certificateDer: identity.certificateDer,
  };
  content = signedProfileContent(authority, input);
});

test('decodes the fields of an ad hoc profile', () => {
  const profile = decodeProvisioningProfile(content);
  expect(profile).toMatchObject({
    name: 'Ad Hoc <Acme> & co',
    uuid: input.uuid,
    appIdName: 'Wildcard',
    teamId: 'TEAM123456',
    teamName: 'Acme',
    udids: input.udids,
    creationDate: input.createdAt,
    expirationDate: input.expiresAt,
    entitlements: {
      'application-identifier': 'TEAM123456.*',
      'com.apple.developer.team-identifier': 'TEAM123456',
      'get-task-allow': false,
      'keychain-access-groups': ['TEAM123456.*'],
    },
    developerCertificates: [input.certificateDer.toString('base64')],
    signedByCert: { subjectCN: 'ASC Simulator Worldwide Developer Relations CA' },
  });
  expect(profile.plist).toMatchObject({ Version: 1, TimeToLive: 365, ApplicationIdentifierPrefix: ['TEAM123456'] });
  expect(profile.signedByCert.pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
});

/** The byte offset of the plist inside the DER, to tamper with the content and nothing else. */
function contentOffset(der: Buffer): number {
  const offset = der.indexOf(Buffer.from('<plist'));
  expect(offset).toBeGreaterThan(0);
  return offset;
}

test('a changed plist no longer matches its signed digest', () => {
  const der = Buffer.from(content, 'base64');
  const offset = contentOffset(der) + der.subarray(contentOffset(der)).indexOf(Buffer.from('TEAM123456'));
  der.write('EVIL', offset, 'latin1');
  expect(() => decodeProvisioningProfile(der.toString('base64'))).toThrow(/does not match its signed digest/);
});

test('a changed signature is refused', () => {
  const der = Buffer.from(content, 'base64');
  const last = der.length - 1;
  der[last] = (der[last] ?? 0) ^ 0xff;
  expect(() => decodeProvisioningProfile(der.toString('base64'))).toThrow(/signature is not valid/);
});

test('an unsigned plist is not a provisioning profile', () => {
  const plist = Buffer.from(buildProfilePlist(input)).toString('base64');
  expect(() => decodeProvisioningProfile(plist)).toThrow(ProvisioningProfileError);
});

test('a SignedData of something else than Data with a plist is refused', () => {
  const signed = forge.pkcs7.createSignedData();
  signed.content = forge.util.createBuffer('not a plist');
  const der = Buffer.from(forge.asn1.toDer(signed.toAsn1()).getBytes(), 'binary');
  expect(() => decodeProvisioningProfile(der.toString('base64'))).toThrow(ProvisioningProfileError);
});

test('BER indefinite lengths, as in profiles Apple ships, are read', () => {
  const der = Buffer.from(content, 'base64');
  const root = readDer(der);
  const [type, wrapper] = root.children;
  const signedData = wrapper?.children[0];
  if (!type || !signedData) throw new Error('unexpected structure');
  const ber = Buffer.concat([
    Buffer.from([0x30, 0x80]),
    type.raw,
    Buffer.from([0xa0, 0x80]),
    signedData.raw,
    Buffer.from([0, 0, 0, 0]),
  ]);
  expect(decodeProvisioningProfile(ber.toString('base64')).udids).toEqual(input.udids);
});
