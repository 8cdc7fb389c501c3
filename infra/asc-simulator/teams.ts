import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { appleErrors } from './apple-errors';
import { issueCertificateFromCsr, issueDistributionIdentity, newApiKey, type CertificateAuthority } from './pki';
import { signedProfileContent } from './profiles';
import { HourlyBudget } from './rate-limit';

const DAY_MS = 24 * 60 * 60 * 1000;

export type TeamMode = 'instant' | 'review';
export type DevicePlatform = 'IOS' | 'MAC_OS';
export type DeviceClass = 'IPHONE' | 'IPAD' | 'MAC';
export type DeviceStatus = 'ENABLED' | 'PROCESSING' | 'INELIGIBLE';

export const DEVICE_WORD: Record<DeviceClass, string> = { IPHONE: 'iPhone', IPAD: 'iPad', MAC: 'Mac' };

/**
 * Apple knows a device's class from its hardware; the simulator only sees the registration, so: platform
 * MAC_OS is a Mac, an IOS device whose name mentions "iPad" (any case) is an iPad, every other one an iPhone.
 * Register iPads with "iPad" in the name to fill the iPad class.
 */
export function deviceClassOf(platform: DevicePlatform, name: string): DeviceClass {
  if (platform === 'MAC_OS') return 'MAC';
  return /ipad/i.test(name) ? 'IPAD' : 'IPHONE';
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Apple's resource and team ids look like `8UM7Q3V2JS`. */
export function appleId(): string {
  return [...randomBytes(10)].map((byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('');
}

/** Apple's dates carry whole seconds; so does the plist inside a profile. */
function wholeSeconds(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

export interface SimDevice {
  id: string;
  udid: string;
  name: string;
  platform: DevicePlatform;
  deviceClass: DeviceClass;
  addedAt: Date;
  /** Set through the control endpoints; without it the status follows the team's mode and the device's age. */
  statusOverride?: 'ENABLED' | 'INELIGIBLE';
}

export interface SimCertificate {
  id: string;
  name: string;
  serialNumber: string;
  der: Buffer;
  expiresAt: Date;
  revoked: boolean;
}

export interface SimBundleId {
  id: string;
  name: string;
  identifier: string;
}

/**
 * An API key of the team. Apple gives each key a role: `ADMIN` and `APP_MANAGER` keys may create and revoke
 * certificates and bundle ids; a `DEVELOPER` key may read them and register devices, and gets Apple's 403 for
 * the rest. A revoked key is refused like an unknown one (401).
 */
export type SimKeyRole = 'ADMIN' | 'APP_MANAGER' | 'DEVELOPER';
export interface SimApiKey {
  keyId: string;
  publicKey: KeyObject;
  role: SimKeyRole;
  revoked: boolean;
}

export interface SimProfile {
  id: string;
  name: string;
  uuid: string;
  createdAt: Date;
  expiresAt: Date;
  content: string;
  deviceIds: string[];
  certificateIds: string[];
}

export interface TeamSettings {
  mode: TeamMode;
  processingMs: number;
  deviceLimitPerClass: number;
  /** Current distribution certificates Apple allows a team at once (3 today). */
  certificateLimit: number;
}

export interface RegisterDeviceRequest {
  name: string;
  udid: string;
  platform: DevicePlatform;
}

export interface CreateProfileRequest {
  name: string;
  bundleIdId: string;
  certificateIds: string[];
  deviceIds: string[];
}

interface TeamInit {
  teamId: string;
  name: string;
  issuerId: string;
  key: SimApiKey;
  certificate: SimCertificate;
  bundleId: SimBundleId;
  membershipExpiresAt: Date;
  settings: TeamSettings;
  budget: HourlyBudget;
  authority: CertificateAuthority;
}

/**
 * One Apple Developer team: its API keys, its devices, its distribution certificates (the first made with the
 * team, more from CSRs up to the cap), its bundle ids (a wildcard one made with the team), its profiles.
 */
export class SimTeam {
  readonly teamId: string;
  readonly name: string;
  readonly issuerId: string;
  /** The first key's id (the one `createTeam` hands out). */
  readonly keyId: string;
  /** The certificate made with the team (the one `createTeam` hands out). */
  readonly certificate: SimCertificate;
  /** The wildcard bundle id made with the team. */
  readonly bundleId: SimBundleId;
  readonly keys = new Map<string, SimApiKey>();
  readonly certificates = new Map<string, SimCertificate>();
  readonly bundleIds = new Map<string, SimBundleId>();
  readonly membershipExpiresAt: Date;
  readonly settings: TeamSettings;
  readonly budget: HourlyBudget;
  readonly devices = new Map<string, SimDevice>();
  readonly profiles = new Map<string, SimProfile>();
  readonly #authority: CertificateAuthority;
  readonly #devicesByUdid = new Map<string, SimDevice>();

  constructor(init: TeamInit) {
    this.teamId = init.teamId;
    this.name = init.name;
    this.issuerId = init.issuerId;
    this.keyId = init.key.keyId;
    this.keys.set(init.key.keyId, init.key);
    this.certificate = init.certificate;
    this.certificates.set(init.certificate.id, init.certificate);
    this.bundleId = init.bundleId;
    this.bundleIds.set(init.bundleId.id, init.bundleId);
    this.membershipExpiresAt = init.membershipExpiresAt;
    this.settings = init.settings;
    this.budget = init.budget;
    this.#authority = init.authority;
  }

  deviceStatus(device: SimDevice, now: number): DeviceStatus {
    if (device.statusOverride) return device.statusOverride;
    const processing = this.settings.mode === 'review' && now < device.addedAt.getTime() + this.settings.processingMs;
    return processing ? 'PROCESSING' : 'ENABLED';
  }

  deviceByUdid(udid: string): SimDevice | undefined {
    return this.#devicesByUdid.get(udid.toLowerCase());
  }

  registerDevice({ name, udid, platform }: RegisterDeviceRequest, now: number): SimDevice {
    if (this.deviceByUdid(udid)) throw appleErrors.deviceExists(udid);
    const deviceClass = deviceClassOf(platform, name);
    const used = [...this.devices.values()].filter((device) => device.deviceClass === deviceClass).length;
    if (used >= this.settings.deviceLimitPerClass) throw appleErrors.deviceClassFull(DEVICE_WORD[deviceClass]);

    const device: SimDevice = { id: appleId(), udid, name, platform, deviceClass, addedAt: new Date(now) };
    this.devices.set(device.id, device);
    this.#devicesByUdid.set(udid.toLowerCase(), device);
    return device;
  }

  /** Apple leaves out devices that are not ENABLED iOS devices of this team, and refuses only when none is left. */
  createAdHocProfile(request: CreateProfileRequest, now: number): SimProfile {
    const bundleId = this.bundleIds.get(request.bundleIdId);
    if (!bundleId) throw appleErrors.relationshipInvalid('bundleId', request.bundleIdId);
    if (request.certificateIds.length === 0) throw appleErrors.relationshipInvalid('certificates', '');
    const certificates = request.certificateIds.map((id) => {
      const certificate = this.certificates.get(id);
      if (!certificate || certificate.revoked) throw appleErrors.relationshipInvalid('certificates', id);
      return certificate;
    });
    const devices = [...new Set(request.deviceIds)]
      .map((id) => this.devices.get(id))
      .filter((device): device is SimDevice => device?.platform === 'IOS' && this.deviceStatus(device, now) === 'ENABLED');
    if (devices.length === 0) throw appleErrors.noCurrentDevices('IOS');

    const createdAt = wholeSeconds(now);
    const expiresAt = wholeSeconds(Math.min(now + 365 * DAY_MS, ...certificates.map((c) => c.expiresAt.getTime())));
    const uuid = randomUUID();
    const content = signedProfileContent(this.#authority, {
      teamId: this.teamId,
      teamName: this.name,
      name: request.name,
      uuid,
      appIdName: bundleId.name,
      bundleIdentifier: bundleId.identifier,
      createdAt,
      expiresAt,
      udids: devices.map((device) => device.udid),
      certificateDer: certificates[0]!.der,
      moreCertificateDers: certificates.slice(1).map((c) => c.der),
    });
    const deviceIds = devices.map((device) => device.id);
    const certificateIds = certificates.map((c) => c.id);
    const profile: SimProfile = { id: appleId(), name: request.name, uuid, createdAt, expiresAt, content, deviceIds, certificateIds };
    this.profiles.set(profile.id, profile);
    return profile;
  }

  /** Apple invalidates the profiles of a revoked certificate, and expired ones. */
  profileState(profile: SimProfile, now: number): 'ACTIVE' | 'INVALID' {
    const revoked = profile.certificateIds.some((id) => this.certificates.get(id)?.revoked !== false);
    return revoked || profile.expiresAt.getTime() <= now ? 'INVALID' : 'ACTIVE';
  }

  /** The distribution certificates Apple still lists: not revoked, not expired. */
  activeCertificates(now = Date.now()): SimCertificate[] {
    return [...this.certificates.values()].filter((c) => !c.revoked && c.expiresAt.getTime() > now);
  }

  /** `POST /v1/certificates`: a distribution certificate for the CSR's key, valid a year, within the team's cap. */
  createCertificate(csrContent: string, now: number): SimCertificate {
    if (this.activeCertificates(now).length >= this.settings.certificateLimit) throw appleErrors.certificateLimit();
    const expiresAt = wholeSeconds(now + 365 * DAY_MS);
    const issued = issueCertificateFromCsr(this.#authority, csrContent, { teamId: this.teamId, teamName: this.name, notAfter: expiresAt });
    if (!issued) throw appleErrors.attributeInvalid('/data/attributes/csrContent', 'csrContent', '(CSR)');
    const certificate: SimCertificate = { id: appleId(), name: issued.commonName, serialNumber: issued.serialNumber, der: issued.certificateDer, expiresAt, revoked: false };
    this.certificates.set(certificate.id, certificate);
    return certificate;
  }

  /** `DELETE /v1/certificates/{id}`: Apple revokes it; it 404s and leaves the list from then on. */
  revokeCertificate(id: string, now = Date.now()): SimCertificate {
    const certificate = this.activeCertificates(now).find((c) => c.id === id);
    if (!certificate) throw appleErrors.notFound('certificates', id);
    certificate.revoked = true;
    return certificate;
  }

  createBundleId(request: { name: string; identifier: string }): SimBundleId {
    if ([...this.bundleIds.values()].some((b) => b.identifier === request.identifier)) throw appleErrors.bundleIdTaken(request.identifier);
    const bundleId: SimBundleId = { id: appleId(), name: request.name, identifier: request.identifier };
    this.bundleIds.set(bundleId.id, bundleId);
    return bundleId;
  }

  deleteBundleId(id: string): void {
    if (!this.bundleIds.delete(id)) throw appleErrors.notFound('bundleIds', id);
  }

  /** A new API key of the team, with its `.p8` (the only time it is shown, as in Apple's portal). */
  addKey(role: SimKeyRole): { key: SimApiKey; privateKeyPem: string } {
    const apiKey = newApiKey();
    const key: SimApiKey = { keyId: appleId(), publicKey: apiKey.publicKey, role, revoked: false };
    this.keys.set(key.keyId, key);
    return { key, privateKeyPem: apiKey.privateKeyPem };
  }
}

export interface NewTeamOptions {
  mode: TeamMode;
  name?: string;
  /** Apple allows 100 per device class and membership year; lower it to reach "full" quickly in tests. */
  deviceLimitPerClass?: number;
  /** Apple's default is 3600 requests an hour per key; lower it to provoke 429. */
  hourlyRequestLimit?: number;
  /** How long new devices of a review team stay PROCESSING; defaults to the simulator's setting. */
  processingSeconds?: number;
  /** The role of the team's first API key (default ADMIN). */
  keyRole?: SimKeyRole;
  /** Distribution certificates the team may hold at once (Apple: 3); the team's first one counts. */
  certificateLimit?: number;
}

/** What an account needs to use a simulated team, as `createTeam` and `POST /_sim/teams` return it. */
export interface SimulatedTeamCredentials {
  teamId: string;
  name: string;
  mode: TeamMode;
  issuerId: string;
  keyId: string;
  privateKeyPem: string;
  certificateId: string;
  bundleIdId: string;
  p12Base64: string;
  p12Password: string;
  membershipExpiresAt: string;
}

export async function newTeam(
  authority: CertificateAuthority,
  options: NewTeamOptions,
  defaults: { processingSeconds: number; now: number },
): Promise<{ team: SimTeam; credentials: SimulatedTeamCredentials }> {
  const teamId = appleId();
  const name = options.name ?? `Simulated Team ${teamId}`;
  const membershipExpiresAt = wholeSeconds(defaults.now + 365 * DAY_MS);
  const apiKey = newApiKey();
  const key: SimApiKey = { keyId: appleId(), publicKey: apiKey.publicKey, role: options.keyRole ?? 'ADMIN', revoked: false };
  const identity = await issueDistributionIdentity(authority, { teamId, teamName: name, notAfter: membershipExpiresAt });
  const team = new SimTeam({
    teamId,
    name,
    issuerId: randomUUID(),
    key,
    certificate: {
      id: appleId(),
      name: identity.commonName,
      serialNumber: identity.serialNumber,
      der: identity.certificateDer,
      expiresAt: membershipExpiresAt,
      revoked: false,
    },
    bundleId: { id: appleId(), name: 'Wildcard', identifier: '*' },
    membershipExpiresAt,
    settings: {
      mode: options.mode,
      processingMs: (options.processingSeconds ?? defaults.processingSeconds) * 1000,
      deviceLimitPerClass: options.deviceLimitPerClass ?? 100,
      certificateLimit: options.certificateLimit ?? 3,
    },
    budget: new HourlyBudget(options.hourlyRequestLimit ?? 3600),
    authority,
  });
  return {
    team,
    credentials: {
      teamId,
      name,
      mode: options.mode,
      issuerId: team.issuerId,
      keyId: team.keyId,
      privateKeyPem: apiKey.privateKeyPem,
      certificateId: team.certificate.id,
      bundleIdId: team.bundleId.id,
      p12Base64: identity.p12Base64,
      p12Password: identity.p12Password,
      membershipExpiresAt: membershipExpiresAt.toISOString(),
    },
  };
}
