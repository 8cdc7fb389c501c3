import { build } from 'plist';
import { signCms, type CertificateAuthority } from './pki';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ProfileContentInput {
  teamId: string;
  teamName: string;
  name: string;
  uuid: string;
  appIdName: string;
  /** The bundle id's identifier, `*` for a wildcard App ID. */
  bundleIdentifier: string;
  createdAt: Date;
  expiresAt: Date;
  udids: string[];
  certificateDer: Buffer;
  /** The profile's other certificates (Apple lists every certificate the profile was made with). */
  moreCertificateDers?: Buffer[];
}

/** The plist inside an ad hoc `.mobileprovision`, with the keys Xcode and iOS read. */
export function buildProfilePlist(input: ProfileContentInput): string {
  const { teamId } = input;
  return build({
    AppIDName: input.appIdName,
    ApplicationIdentifierPrefix: [teamId],
    CreationDate: input.createdAt,
    Platform: ['iOS'],
    IsXcodeManaged: false,
    DeveloperCertificates: [input.certificateDer, ...(input.moreCertificateDers ?? [])].map((der) => new Uint8Array(der)),
    Entitlements: {
      'application-identifier': `${teamId}.${input.bundleIdentifier}`,
      'com.apple.developer.team-identifier': teamId,
      'get-task-allow': false,
      'keychain-access-groups': [`${teamId}.*`],
    },
    ExpirationDate: input.expiresAt,
    Name: input.name,
    ProvisionedDevices: input.udids,
    TeamIdentifier: [teamId],
    TeamName: input.teamName,
    TimeToLive: Math.round((input.expiresAt.getTime() - input.createdAt.getTime()) / DAY_MS),
    UUID: input.uuid,
    Version: 1,
  });
}

/** `profileContent` as Apple returns it: the plist in a CMS SignedData, DER, base64. */
export function signedProfileContent(authority: CertificateAuthority, input: ProfileContentInput): string {
  return signCms(authority, buildProfilePlist(input)).toString('base64');
}
