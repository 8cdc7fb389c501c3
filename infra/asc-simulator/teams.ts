import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { appleErrors } from './apple-errors';
import { issueDistributionIdentity, newApiKey, type CertificateAuthority } from './pki';
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

export interface SimProfile {
  id: string;
  name: string;
  uuid: string;
  createdAt: Date;
  expiresAt: Date;
  content: string;
  deviceIds: string[];
}

export interface TeamSettings {
  mode: TeamMode;
  processingMs: number;
  deviceLimitPerClass: number;
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
  keyId: string;
  publicKey: KeyObject;
  certificate: SimCertificate;
  bundleId: SimBundleId;
  membershipExpiresAt: Date;
  settings: TeamSettings;
  budget: HourlyBudget;
  authority: CertificateAuthority;
}

/** One Apple Developer team: its devices, its one distribution certificate, its wildcard bundle id, its profiles. */
export class SimTeam {
  readonly teamId: string;
  readonly name: string;
  readonly issuerId: string;
  readonly keyId: string;
  readonly publicKey: KeyObject;
  readonly certificate: SimCertificate;
  readonly bundleId: SimBundleId;
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
    this.keyId = init.keyId;
    this.publicKey = init.publicKey;
    this.certificate = init.certificate;
    this.bundleId = init.bundleId;
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
    if (request.bundleIdId !== this.bundleId.id) throw appleErrors.relationshipInvalid('bundleId', request.bundleIdId);
    if (request.certificateIds.length === 0) throw appleErrors.relationshipInvalid('certificates', '');
    for (const id of request.certificateIds) {
      if (id !== this.certificate.id || this.certificate.revoked) throw appleErrors.relationshipInvalid('certificates', id);
    }
    const devices = [...new Set(request.deviceIds)]
      .map((id) => this.devices.get(id))
      .filter((device): device is SimDevice => device?.platform === 'IOS' && this.deviceStatus(device, now) === 'ENABLED');
    if (devices.length === 0) throw appleErrors.noCurrentDevices('IOS');

    const createdAt = wholeSeconds(now);
    const expiresAt = wholeSeconds(Math.min(now + 365 * DAY_MS, this.certificate.expiresAt.getTime()));
    const uuid = randomUUID();
    const content = signedProfileContent(this.#authority, {
      teamId: this.teamId,
      teamName: this.name,
      name: request.name,
      uuid,
      appIdName: this.bundleId.name,
      bundleIdentifier: this.bundleId.identifier,
      createdAt,
      expiresAt,
      udids: devices.map((device) => device.udid),
      certificateDer: this.certificate.der,
    });
    const deviceIds = devices.map((device) => device.id);
    const profile: SimProfile = { id: appleId(), name: request.name, uuid, createdAt, expiresAt, content, deviceIds };
    this.profiles.set(profile.id, profile);
    return profile;
  }

  /** The distribution certificate, unless Apple revoked it. */
  activeCertificates(): SimCertificate[] {
    return this.certificate.revoked ? [] : [this.certificate];
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
  const identity = await issueDistributionIdentity(authority, { teamId, teamName: name, notAfter: membershipExpiresAt });
  const team = new SimTeam({
    teamId,
    name,
    issuerId: randomUUID(),
    keyId: appleId(),
    publicKey: apiKey.publicKey,
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
