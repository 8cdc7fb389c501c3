import { createHash, verify, X509Certificate } from 'node:crypto';
import { parsePlist, type PlistValue } from './plist-reader';
import { child, DerError, octetsOf, oidOf, readDer, Tag, type DerNode } from './der';
import { unreadableFileError } from './unreadable-file-error';
import { ownValue } from '../own-record';

/**
 * Reads a `.mobileprovision`: a CMS SignedData whose content is an XML plist. The signature is checked against
 * the signer certificate carried inside; whether that certificate chains to Apple is the caller's decision
 * (`signedByCert`), since simulated profiles are signed by the simulator's CA.
 */

export interface DecodedProvisioningProfile {
  /** The whole plist, for fields without a typed accessor below. */
  plist: Record<string, PlistValue>;
  name: string;
  uuid: string;
  appIdName: string;
  teamId: string;
  teamName: string;
  /** ProvisionedDevices; empty for profiles that list none (App Store, enterprise). */
  udids: string[];
  creationDate: Date;
  expirationDate: Date;
  entitlements: Record<string, PlistValue>;
  /** Base64 DER of each certificate allowed to sign apps with this profile. */
  developerCertificates: string[];
  signedByCert: { subjectCN: string | undefined; issuerCN: string | undefined; pem: string };
}

export const ProvisioningProfileError = unreadableFileError('ProvisioningProfileError', 'profile_unreadable');
export type ProvisioningProfileError = InstanceType<typeof ProvisioningProfileError>;

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  messageDigest: '1.2.840.113549.1.9.4',
};

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

function commonName(distinguishedName: string): string | undefined {
  return /^CN=(.*)$/m.exec(distinguishedName)?.[1];
}

function normalizeSerial(hex: string): string {
  return hex.toUpperCase().replace(/^0+/, '');
}

interface SignedContent {
  content: Buffer;
  signer: X509Certificate;
}

/** Returns the content of a CMS SignedData once its first signer's signature checks out. */
function verifiedContent(der: Buffer): SignedContent {
  const contentInfo = readDer(der);
  if (oidOf(child(contentInfo, 0, Tag.OID)) !== OID.signedData) {
    throw new ProvisioningProfileError('Not a CMS SignedData');
  }
  const signedData = child(child(contentInfo, 1, Tag.CONTEXT_0), 0, Tag.SEQUENCE);
  const parts = signedData.children;
  const content = octetsOf(child(child(child(signedData, 2, Tag.SEQUENCE), 1, Tag.CONTEXT_0), 0));
  const certificates = (parts.find((part, index) => index > 2 && part.tag === Tag.CONTEXT_0)?.children ?? []).map(
    (node) => new X509Certificate(node.raw),
  );
  const signerInfos = parts[parts.length - 1];
  if (!signerInfos || signerInfos.tag !== Tag.SET) throw new ProvisioningProfileError('No SignerInfos');
  const signerInfo = child(signerInfos, 0, Tag.SEQUENCE);

  // SignerInfo: version, issuerAndSerialNumber, digestAlgorithm, [0] signedAttrs?, signatureAlgorithm, signature
  const serial = normalizeSerial(child(child(signerInfo, 1, Tag.SEQUENCE), 1, Tag.INTEGER).content.toString('hex'));
  const signer = certificates.find((cert) => normalizeSerial(cert.serialNumber) === serial);
  if (!signer) throw new ProvisioningProfileError('The signer certificate is not in the profile');
  const digest = ownValue(DIGESTS, oidOf(child(child(signerInfo, 2, Tag.SEQUENCE), 0)));
  if (!digest) throw new ProvisioningProfileError('Unsupported digest algorithm');

  const signedAttrs: DerNode | undefined = signerInfo.children[3]?.tag === Tag.CONTEXT_0 ? signerInfo.children[3] : undefined;
  const signature = child(signerInfo, signedAttrs ? 5 : 4, Tag.OCTET_STRING).content;
  let signedBytes = content;
  if (signedAttrs) {
    const messageDigest = signedAttrs.children.find((attr) => oidOf(child(attr, 0)) === OID.messageDigest);
    const expected = messageDigest && octetsOf(child(child(messageDigest, 1, Tag.SET), 0));
    if (!expected?.equals(createHash(digest).update(content).digest())) {
      throw new ProvisioningProfileError('The profile content does not match its signed digest');
    }
    // The signature covers the attributes encoded as a SET, not as the [0] they are stored under.
    signedBytes = Buffer.concat([Buffer.from([Tag.SET]), signedAttrs.raw.subarray(1)]);
  }
  if (!verify(digest, signedBytes, signer.publicKey, signature)) {
    throw new ProvisioningProfileError('The profile signature is not valid');
  }
  return { content, signer };
}

type PlistDict = Record<string, PlistValue>;

function isDict(value: PlistValue | undefined): value is PlistDict {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof Uint8Array);
}

function field<T extends PlistValue>(dict: PlistDict, key: string, what: string, check: (value: PlistValue) => value is T): T {
  const value = dict[key];
  if (value === undefined || !check(value)) throw new ProvisioningProfileError(`The profile's ${key} is not ${what}`);
  return value;
}

const isString = (value: PlistValue): value is string => typeof value === 'string';
const isDate = (value: PlistValue): value is Date => value instanceof Date;
const isStringArray = (value: PlistValue): value is string[] => Array.isArray(value) && value.every(isString);
const isDataArray = (value: PlistValue): value is Uint8Array[] =>
  Array.isArray(value) && value.every((item) => item instanceof Uint8Array);

export function decodeProvisioningProfile(base64: string): DecodedProvisioningProfile {
  let signed: SignedContent;
  let plist: PlistValue;
  try {
    signed = verifiedContent(Buffer.from(base64, 'base64'));
    plist = parsePlist(signed.content.toString('utf8'));
  } catch (error) {
    if (error instanceof ProvisioningProfileError) throw error;
    const reason = error instanceof DerError ? error.message : String(error);
    throw new ProvisioningProfileError(`Not a readable provisioning profile: ${reason}`, { cause: error });
  }
  if (!isDict(plist)) throw new ProvisioningProfileError('The profile content is not a plist dictionary');

  const teamIds = field(plist, 'TeamIdentifier', 'a list of strings', isStringArray);
  const teamId = teamIds[0];
  if (!teamId) throw new ProvisioningProfileError("The profile's TeamIdentifier is empty");
  const entitlements = plist['Entitlements'];
  if (!isDict(entitlements)) throw new ProvisioningProfileError("The profile's Entitlements is not a dictionary");
  const devices = plist['ProvisionedDevices'];

  return {
    plist,
    name: field(plist, 'Name', 'a string', isString),
    uuid: field(plist, 'UUID', 'a string', isString),
    appIdName: field(plist, 'AppIDName', 'a string', isString),
    teamId,
    teamName: field(plist, 'TeamName', 'a string', isString),
    udids: devices === undefined ? [] : field(plist, 'ProvisionedDevices', 'a list of strings', isStringArray),
    creationDate: field(plist, 'CreationDate', 'a date', isDate),
    expirationDate: field(plist, 'ExpirationDate', 'a date', isDate),
    entitlements,
    developerCertificates: field(plist, 'DeveloperCertificates', 'a list of data', isDataArray).map((der) =>
      Buffer.from(der).toString('base64'),
    ),
    signedByCert: {
      subjectCN: commonName(signed.signer.subject),
      issuerCN: commonName(signed.signer.issuer),
      pem: signed.signer.toString(),
    },
  };
}
