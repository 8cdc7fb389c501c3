import { DEVICE_WORD, type DeviceStatus, type SimBundleId, type SimCertificate, type SimDevice, type SimProfile } from './teams';

/** JSON:API resources shaped as Apple's OpenAPI document describes them (type, id, attributes, relationships, links). */

export function deviceResource(device: SimDevice, status: DeviceStatus, baseUrl: string) {
  return {
    type: 'devices',
    id: device.id,
    attributes: {
      name: device.name,
      platform: device.platform,
      udid: device.udid,
      deviceClass: device.deviceClass,
      status,
      model: DEVICE_WORD[device.deviceClass],
      addedDate: device.addedAt.toISOString(),
    },
    links: { self: `${baseUrl}/v1/devices/${device.id}` },
  };
}

export function certificateResource(certificate: SimCertificate, teamName: string, baseUrl: string) {
  return {
    type: 'certificates',
    id: certificate.id,
    attributes: {
      name: certificate.name,
      certificateType: 'IOS_DISTRIBUTION',
      displayName: teamName,
      serialNumber: certificate.serialNumber,
      platform: 'IOS',
      expirationDate: certificate.expiresAt.toISOString(),
      certificateContent: certificate.der.toString('base64'),
    },
    links: { self: `${baseUrl}/v1/certificates/${certificate.id}` },
  };
}

export function bundleIdResource(bundleId: SimBundleId, teamId: string, baseUrl: string) {
  const self = `${baseUrl}/v1/bundleIds/${bundleId.id}`;
  const relationship = (name: string) => ({
    links: { self: `${self}/relationships/${name}`, related: `${self}/${name}` },
  });
  return {
    type: 'bundleIds',
    id: bundleId.id,
    attributes: { name: bundleId.name, platform: 'IOS', identifier: bundleId.identifier, seedId: teamId },
    relationships: { profiles: relationship('profiles'), bundleIdCapabilities: relationship('bundleIdCapabilities') },
    links: { self },
  };
}

/** The relationships a request asked to include; each carries linkage data only then, as in Apple's answers. */
export interface ProfileLinkage {
  bundleIdId?: string;
  certificateIds?: string[];
  /** The device ids shown (Apple caps them per response) and how many the profile has. */
  devices?: { ids: string[]; total: number; limit: number };
}

export function profileResource(
  profile: SimProfile,
  state: 'ACTIVE' | 'INVALID',
  linkage: ProfileLinkage,
  baseUrl: string,
) {
  const self = `${baseUrl}/v1/profiles/${profile.id}`;
  const links = (name: string) => ({ self: `${self}/relationships/${name}`, related: `${self}/${name}` });
  const ids = (type: string, list: string[]) => list.map((id) => ({ type, id }));
  const { bundleIdId, certificateIds, devices } = linkage;
  return {
    type: 'profiles',
    id: profile.id,
    attributes: {
      name: profile.name,
      platform: 'IOS',
      profileType: 'IOS_APP_ADHOC',
      profileState: state,
      profileContent: profile.content,
      uuid: profile.uuid,
      createdDate: profile.createdAt.toISOString(),
      expirationDate: profile.expiresAt.toISOString(),
    },
    relationships: {
      bundleId: {
        links: links('bundleId'),
        ...(bundleIdId ? { data: { type: 'bundleIds', id: bundleIdId } } : {}),
      },
      devices: {
        links: links('devices'),
        ...(devices
          ? { meta: { paging: { total: devices.total, limit: devices.limit } }, data: ids('devices', devices.ids) }
          : {}),
      },
      certificates: {
        links: links('certificates'),
        ...(certificateIds ? { data: ids('certificates', certificateIds) } : {}),
      },
    },
    links: { self },
  };
}
