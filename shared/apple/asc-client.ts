import type * as z from 'zod/mini';
import { AppleApiError, CertificateNotFoundError } from './asc-errors';
import { AscTransport, type AscRateLimit, type AscTransportOptions, type Query } from './asc-http';
import { sharedTokenCache, type AscCredentials, type AscTokenCache } from './asc-jwt';
import {
  bundleIdDocumentSchema,
  bundleIdsDocumentSchema,
  certificateDocumentSchema,
  certificatesDocumentSchema,
  toBundleId,
  deviceDocumentSchema,
  devicesDocumentSchema,
  profileDocumentSchema,
  profileDevicesDocumentSchema,
  toCertificate,
  toDevice,
  type AscBundleId,
  type AscCertificate,
  type AscDevice,
} from './asc-resources';
import { decodeProvisioningProfile, type DecodedProvisioningProfile } from './profile-reader';

export interface AscClientOptions extends AscTransportOptions {
  /** Defaults to the process-wide cache, so clients created per request share tokens. */
  tokens?: AscTokenCache;
}

export interface RegisterDeviceInput {
  name: string;
  udid: string;
  platform: 'IOS';
}

export interface AdHocProfileInput {
  name: string;
  bundleIdId: string;
  certificateIds: string[];
  deviceIds: string[];
}

export interface AscProfile {
  id: string;
  name: string;
  uuid: string;
  profileState: string;
  expirationDate: string;
  /** The `.mobileprovision`, base64, as Apple returned it. */
  profileContent: string;
  decoded: DecodedProvisioningProfile;
  /** The devices Apple put in the profile: requested ones still processing are silently left out. */
  deviceIds: string[];
}

/** Apple returns at most 50 related devices per profile read, so a profile can only be checked up to that size. */
export const MAX_PROFILE_DEVICES = 50;

/** App Store Connect operations for one API key; every failure is an AppleApiError. */
export class AscClient {
  readonly #transport: AscTransport;

  constructor(credentials: AscCredentials, options: AscClientOptions = {}) {
    this.#transport = new AscTransport(credentials, options.tokens ?? sharedTokenCache, options);
  }

  /** The hourly budget Apple reported on the last response, if any arrived. */
  get rateLimit(): AscRateLimit | undefined {
    return this.#transport.rateLimit;
  }

  async registerDevice({ name, udid, platform }: RegisterDeviceInput): Promise<AscDevice> {
    const body = { data: { type: 'devices', attributes: { name, udid, platform } } };
    const document = await this.#call(deviceDocumentSchema, 'POST', '/v1/devices', { body, repeatable: false });
    return toDevice(document.data);
  }

  async findDeviceByUdid(udid: string): Promise<AscDevice | undefined> {
    const document = await this.#call(devicesDocumentSchema, 'GET', '/v1/devices', {
      query: { 'filter[udid]': udid },
    });
    const wanted = udid.toLowerCase();
    const match = document.data.find((device) => device.attributes.udid.toLowerCase() === wanted);
    return match && toDevice(match);
  }

  async getDevice(id: string): Promise<AscDevice> {
    const document = await this.#call(deviceDocumentSchema, 'GET', `/v1/devices/${encodeURIComponent(id)}`);
    return toDevice(document.data);
  }

  /**
   * Creates an IOS_APP_ADHOC profile, then reads back which devices Apple really put in it (devices still
   * PROCESSING are dropped without an error unless none is left).
   */
  async createAdHocProfile(input: AdHocProfileInput): Promise<AscProfile> {
    if (input.deviceIds.length > MAX_PROFILE_DEVICES) {
      throw new RangeError(`An ad hoc profile is limited to ${MAX_PROFILE_DEVICES} devices here`);
    }
    const linkages = (type: string, ids: string[]) => ids.map((id) => ({ type, id }));
    const body = {
      data: {
        type: 'profiles',
        attributes: { name: input.name, profileType: 'IOS_APP_ADHOC' },
        relationships: {
          bundleId: { data: { type: 'bundleIds', id: input.bundleIdId } },
          certificates: { data: linkages('certificates', input.certificateIds) },
          devices: { data: linkages('devices', input.deviceIds) },
        },
      },
    };
    const { data } = await this.#call(profileDocumentSchema, 'POST', '/v1/profiles', { body });
    const included = await this.#call(profileDevicesDocumentSchema, 'GET', `/v1/profiles/${encodeURIComponent(data.id)}`, {
      query: {
        include: 'devices',
        'fields[profiles]': 'devices',
        'fields[devices]': 'udid',
        'limit[devices]': MAX_PROFILE_DEVICES,
      },
    });

    let decoded: DecodedProvisioningProfile;
    try {
      decoded = decodeProvisioningProfile(data.attributes.profileContent);
    } catch (cause) {
      throw new AppleApiError('unexpected', `Profile ${data.id} has unreadable content`, { cause });
    }
    const { name, uuid, profileState, expirationDate, profileContent } = data.attributes;
    return {
      id: data.id,
      name,
      uuid,
      profileState,
      expirationDate,
      profileContent,
      decoded,
      deviceIds: included.data.relationships.devices.data.map((device) => device.id),
    };
  }

  /** A revoked certificate no longer exists for Apple: that 404 is a CertificateNotFoundError. */
  async getCertificate(id: string): Promise<AscCertificate> {
    try {
      const document = await this.#call(certificateDocumentSchema, 'GET', `/v1/certificates/${encodeURIComponent(id)}`);
      return toCertificate(document);
    } catch (error) {
      if (error instanceof AppleApiError && error.kind === 'not_found') {
        throw new CertificateNotFoundError(id, { status: error.status, errors: error.errors, cause: error });
      }
      throw error;
    }
  }

  /** The team's current distribution certificates (Apple lists neither revoked nor expired ones). */
  async listDistributionCertificates(): Promise<AscCertificate[]> {
    const document = await this.#call(certificatesDocumentSchema, 'GET', '/v1/certificates', {
      query: { 'filter[certificateType]': 'IOS_DISTRIBUTION', limit: 200 },
    });
    return document.data.map((data) => toCertificate({ data }));
  }

  /**
   * A distribution certificate for the key of `csrPem`. Not repeated blindly: a lost answer may have made one,
   * which the caller finds by its public key in `listDistributionCertificates`.
   */
  async createDistributionCertificate(csrPem: string): Promise<AscCertificate> {
    const body = { data: { type: 'certificates', attributes: { csrContent: csrPem, certificateType: 'IOS_DISTRIBUTION' } } };
    return toCertificate(await this.#call(certificateDocumentSchema, 'POST', '/v1/certificates', { body, repeatable: false }));
  }

  /** Revokes a certificate; one Apple no longer has is already what was asked. */
  async revokeCertificate(id: string): Promise<void> {
    try {
      await this.#transport.request({ method: 'DELETE', path: `/v1/certificates/${encodeURIComponent(id)}` });
    } catch (error) {
      if (!(error instanceof AppleApiError && error.kind === 'not_found')) throw error;
    }
  }

  async findBundleId(identifier: string): Promise<AscBundleId | undefined> {
    const document = await this.#call(bundleIdsDocumentSchema, 'GET', '/v1/bundleIds', { query: { 'filter[identifier]': identifier } });
    const match = document.data.find((bundleId) => bundleId.attributes.identifier === identifier);
    return match && toBundleId(match);
  }

  async getBundleId(id: string): Promise<AscBundleId> {
    return toBundleId((await this.#call(bundleIdDocumentSchema, 'GET', `/v1/bundleIds/${encodeURIComponent(id)}`)).data);
  }

  async createBundleId(input: { name: string; identifier: string }): Promise<AscBundleId> {
    const body = { data: { type: 'bundleIds', attributes: { name: input.name, identifier: input.identifier, platform: 'IOS' } } };
    const document = await this.#call(bundleIdDocumentSchema, 'POST', '/v1/bundleIds', { body, repeatable: false });
    return toBundleId(document.data);
  }

  async deleteBundleId(id: string): Promise<void> {
    try {
      await this.#transport.request({ method: 'DELETE', path: `/v1/bundleIds/${encodeURIComponent(id)}` });
    } catch (error) {
      if (!(error instanceof AppleApiError && error.kind === 'not_found')) throw error;
    }
  }

  async #call<S extends z.ZodMiniType>(
    schema: S,
    method: 'GET' | 'POST',
    path: string,
    options: { query?: Query; body?: unknown; repeatable?: boolean } = {},
  ): Promise<z.infer<S>> {
    const body = await this.#transport.request({ method, path, ...options });
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new AppleApiError('unexpected', `${method} ${path}: unexpected response shape: ${parsed.error.message}`);
    }
    return parsed.data;
  }
}
