import * as z from 'zod/mini';
import { appleErrors } from './apple-errors';
import { bundleIdResource, certificateResource, deviceResource, profileResource } from './jsonapi';
import { UDID_PATTERN } from '../../shared/records/device';
import type { SimKeyRole, SimTeam } from './teams';

/**
 * Apple's provisioning endpoints over one team's state. Each route names the query parameters it implements and
 * refuses any other with Apple's 400, so a client relying on something the simulator does not do fails loudly.
 * `fields[…]` (sparse fieldsets) are accepted and ignored: answering with every field is a superset.
 */

export interface AppleRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  team: SimTeam;
  /** The role of the API key the request was signed with. */
  role: SimKeyRole;
  now: number;
  /** The simulator's own URL, the root of every link. */
  baseUrl: string;
}

export interface AppleReply {
  status: number;
  body: unknown;
}

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  params: readonly string[];
  handle: (request: AppleRequest, id: string) => AppleReply;
  /** Creates or revokes signing assets: a DEVELOPER key gets Apple's 403. */
  adminOnly?: true;
}

const PAGE_DEFAULT = 20;
const PAGE_MAX = 200;
/** Related resources shown per include; a client that needs more must ask with `limit[…]` (Apple's maximum: 50). */
const INCLUDED_DEFAULT = 10;
const INCLUDED_MAX = 50;

function selfUrl({ baseUrl, path, query }: AppleRequest): string {
  const search = query.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

function intParam(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > max) throw appleErrors.parameterInvalid(name, raw);
  return value;
}

/** A comma-separated filter as a set, or undefined when the filter is absent. */
function listParam(query: URLSearchParams, name: string, normalize = (value: string) => value): Set<string> | undefined {
  const raw = query.get(name);
  return raw === null ? undefined : new Set(raw.split(',').map(normalize));
}

function pageOf<T>(items: T[], request: AppleRequest) {
  const limit = intParam(request.query, 'limit', PAGE_DEFAULT, PAGE_MAX);
  const cursor = request.query.get('cursor');
  const offset = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isInteger(offset) || offset < 0) throw appleErrors.parameterInvalid('cursor', cursor ?? '');
  let next: string | undefined;
  if (offset + limit < items.length) {
    const query = new URLSearchParams(request.query);
    query.set('cursor', Buffer.from(String(offset + limit)).toString('base64url'));
    next = `${request.baseUrl}${request.path}?${query.toString()}`;
  }
  return {
    items: items.slice(offset, offset + limit),
    links: { self: selfUrl(request), ...(next ? { next } : {}) },
    meta: { paging: { total: items.length, limit } },
  };
}

function valueAt(body: unknown, path: PropertyKey[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Parses a request entity, turning the first problem into Apple's attribute error for that JSON pointer. */
function parseEntity<S extends z.ZodMiniType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const path = result.error.issues[0]?.path ?? [];
  const pointer = `/${path.map(String).join('/')}`;
  const name = String(path[path.length - 1] ?? 'data');
  const value = valueAt(body, path);
  throw value === undefined ? appleErrors.attributeRequired(pointer, name) : appleErrors.attributeInvalid(pointer, name, value);
}

const linkage = <T extends string>(type: T) => z.object({ type: z.literal(type), id: z.string().check(z.minLength(1)) });

const deviceCreateRequest = z.object({
  data: z.object({
    type: z.literal('devices'),
    attributes: z.object({
      name: z.string().check(z.minLength(1)),
      udid: z.string().check(z.regex(UDID_PATTERN)),
      platform: z.enum(['IOS', 'MAC_OS']),
    }),
  }),
});

/** Only ad hoc profiles are simulated: any other profileType is refused as an invalid attribute. */
const profileCreateRequest = z.object({
  data: z.object({
    type: z.literal('profiles'),
    attributes: z.object({ name: z.string().check(z.minLength(1)), profileType: z.literal('IOS_APP_ADHOC') }),
    relationships: z.object({
      bundleId: z.object({ data: linkage('bundleIds') }),
      certificates: z.object({ data: z.array(linkage('certificates')) }),
      devices: z.optional(z.object({ data: z.array(linkage('devices')) })),
    }),
  }),
});

function registerDevice(request: AppleRequest): AppleReply {
  const { team, now, baseUrl } = request;
  const { attributes } = parseEntity(deviceCreateRequest, request.body).data;
  const device = team.registerDevice(attributes, now);
  return {
    status: 201,
    body: { data: deviceResource(device, team.deviceStatus(device, now), baseUrl), links: { self: selfUrl(request) } },
  };
}

function listDevices(request: AppleRequest): AppleReply {
  const { team, now, baseUrl, query } = request;
  const udids = listParam(query, 'filter[udid]', (udid) => udid.toLowerCase());
  const ids = listParam(query, 'filter[id]');
  const names = listParam(query, 'filter[name]');
  const platforms = listParam(query, 'filter[platform]');
  const statuses = listParam(query, 'filter[status]');
  const matches = [...team.devices.values()].filter(
    (device) =>
      (!udids || udids.has(device.udid.toLowerCase())) &&
      (!ids || ids.has(device.id)) &&
      (!names || names.has(device.name)) &&
      (!platforms || platforms.has(device.platform)) &&
      (!statuses || statuses.has(team.deviceStatus(device, now))),
  );
  const { items, links, meta } = pageOf(matches, request);
  const data = items.map((device) => deviceResource(device, team.deviceStatus(device, now), baseUrl));
  return { status: 200, body: { data, links, meta } };
}

function getDevice(request: AppleRequest, id: string): AppleReply {
  const { team, now, baseUrl } = request;
  const device = team.devices.get(id);
  if (!device) throw appleErrors.notFound('devices', id);
  return {
    status: 200,
    body: { data: deviceResource(device, team.deviceStatus(device, now), baseUrl), links: { self: selfUrl(request) } },
  };
}

function createProfile(request: AppleRequest): AppleReply {
  const { team, now, baseUrl } = request;
  const { attributes, relationships } = parseEntity(profileCreateRequest, request.body).data;
  const profile = team.createAdHocProfile(
    {
      name: attributes.name,
      bundleIdId: relationships.bundleId.data.id,
      certificateIds: relationships.certificates.data.map((certificate) => certificate.id),
      deviceIds: (relationships.devices?.data ?? []).map((device) => device.id),
    },
    now,
  );
  return {
    status: 201,
    body: { data: profileResource(profile, 'ACTIVE', {}, baseUrl), links: { self: selfUrl(request) } },
  };
}

const PROFILE_INCLUDES = new Set(['bundleId', 'devices', 'certificates']);

function getProfile(request: AppleRequest, id: string): AppleReply {
  const { team, now, baseUrl, query } = request;
  const profile = team.profiles.get(id);
  if (!profile) throw appleErrors.notFound('profiles', id);
  const include = listParam(query, 'include') ?? new Set<string>();
  for (const name of include) if (!PROFILE_INCLUDES.has(name)) throw appleErrors.parameterInvalid('include', name);
  const deviceLimit = intParam(query, 'limit[devices]', INCLUDED_DEFAULT, INCLUDED_MAX);
  const certificateLimit = intParam(query, 'limit[certificates]', INCLUDED_DEFAULT, INCLUDED_MAX);

  const shownDeviceIds = profile.deviceIds.slice(0, deviceLimit);
  const certificates = team.activeCertificates().slice(0, certificateLimit);
  const included = [
    ...(include.has('bundleId') ? [bundleIdResource(team.bundleId, team.teamId, baseUrl)] : []),
    ...(include.has('devices')
      ? shownDeviceIds.flatMap((deviceId) => {
          const device = team.devices.get(deviceId);
          return device ? [deviceResource(device, team.deviceStatus(device, now), baseUrl)] : [];
        })
      : []),
    ...(include.has('certificates')
      ? certificates.map((certificate) => certificateResource(certificate, team.name, baseUrl))
      : []),
  ];
  // Apple invalidates the profiles of a revoked certificate.
  const state = team.profileState(profile, now);
  const data = profileResource(
    profile,
    state,
    {
      ...(include.has('bundleId') ? { bundleIdId: team.bundleId.id } : {}),
      ...(include.has('certificates') ? { certificateIds: certificates.map((certificate) => certificate.id) } : {}),
      ...(include.has('devices')
        ? { devices: { ids: shownDeviceIds, total: profile.deviceIds.length, limit: deviceLimit } }
        : {}),
    },
    baseUrl,
  );
  return { status: 200, body: { data, ...(included.length > 0 ? { included } : {}), links: { self: selfUrl(request) } } };
}

function listCertificates(request: AppleRequest): AppleReply {
  const { team, baseUrl, query } = request;
  const types = listParam(query, 'filter[certificateType]');
  const ids = listParam(query, 'filter[id]');
  const serials = listParam(query, 'filter[serialNumber]', (serial) => serial.toUpperCase());
  const matches = team
    .activeCertificates()
    .filter(
      (certificate) =>
        (!types || types.has('IOS_DISTRIBUTION')) &&
        (!ids || ids.has(certificate.id)) &&
        (!serials || serials.has(certificate.serialNumber)),
    );
  const { items, links, meta } = pageOf(matches, request);
  return { status: 200, body: { data: items.map((c) => certificateResource(c, team.name, baseUrl)), links, meta } };
}

function getCertificate(request: AppleRequest, id: string): AppleReply {
  const { team, baseUrl } = request;
  const certificate = team.activeCertificates().find((candidate) => candidate.id === id);
  if (!certificate) throw appleErrors.notFound('certificates', id);
  return {
    status: 200,
    body: { data: certificateResource(certificate, team.name, baseUrl), links: { self: selfUrl(request) } },
  };
}

const certificateCreateRequest = z.object({
  data: z.object({
    type: z.literal('certificates'),
    attributes: z.object({ csrContent: z.string().check(z.minLength(1)), certificateType: z.literal('IOS_DISTRIBUTION') }),
  }),
});

function createCertificate(request: AppleRequest): AppleReply {
  const { team, now, baseUrl } = request;
  const { attributes } = parseEntity(certificateCreateRequest, request.body).data;
  const certificate = team.createCertificate(attributes.csrContent, now);
  return { status: 201, body: { data: certificateResource(certificate, team.name, baseUrl), links: { self: selfUrl(request) } } };
}

function revokeCertificate(request: AppleRequest, id: string): AppleReply {
  request.team.revokeCertificate(id, request.now);
  return { status: 204, body: undefined };
}

function getBundleId(request: AppleRequest, id: string): AppleReply {
  const { team, baseUrl } = request;
  const bundleId = team.bundleIds.get(id);
  if (!bundleId) throw appleErrors.notFound('bundleIds', id);
  return {
    status: 200,
    body: { data: bundleIdResource(bundleId, team.teamId, baseUrl), links: { self: selfUrl(request) } },
  };
}

function listBundleIds(request: AppleRequest): AppleReply {
  const { team, baseUrl, query } = request;
  const identifiers = listParam(query, 'filter[identifier]');
  const names = listParam(query, 'filter[name]');
  const ids = listParam(query, 'filter[id]');
  const platforms = listParam(query, 'filter[platform]');
  const matches = [...team.bundleIds.values()].filter(
    (b) => (!identifiers || identifiers.has(b.identifier)) && (!names || names.has(b.name)) && (!ids || ids.has(b.id)) && (!platforms || platforms.has('IOS')),
  );
  const { items, links, meta } = pageOf(matches, request);
  return { status: 200, body: { data: items.map((b) => bundleIdResource(b, team.teamId, baseUrl)), links, meta } };
}

/** Only iOS bundle ids are simulated. */
const bundleIdCreateRequest = z.object({
  data: z.object({
    type: z.literal('bundleIds'),
    attributes: z.object({ name: z.string().check(z.minLength(1)), identifier: z.string().check(z.regex(/^(\*|[A-Za-z0-9.-]+(\.\*)?)$/)), platform: z.literal('IOS') }),
  }),
});

function createBundleId(request: AppleRequest): AppleReply {
  const { team, baseUrl } = request;
  const { attributes } = parseEntity(bundleIdCreateRequest, request.body).data;
  const bundleId = team.createBundleId(attributes);
  return { status: 201, body: { data: bundleIdResource(bundleId, team.teamId, baseUrl), links: { self: selfUrl(request) } } };
}

function deleteBundleId(request: AppleRequest, id: string): AppleReply {
  request.team.deleteBundleId(id);
  return { status: 204, body: undefined };
}

const ID = '([A-Za-z0-9]+)';
const routes: Route[] = [
  { method: 'POST', pattern: /^\/v1\/devices$/, params: [], handle: registerDevice },
  {
    method: 'GET',
    pattern: /^\/v1\/devices$/,
    params: ['filter[udid]', 'filter[id]', 'filter[name]', 'filter[platform]', 'filter[status]', 'fields[devices]', 'limit', 'cursor'],
    handle: listDevices,
  },
  { method: 'GET', pattern: new RegExp(`^/v1/devices/${ID}$`), params: ['fields[devices]'], handle: getDevice },
  { method: 'POST', pattern: /^\/v1\/profiles$/, params: [], handle: createProfile },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/profiles/${ID}$`),
    params: [
      'include',
      'limit[devices]',
      'limit[certificates]',
      'fields[profiles]',
      'fields[devices]',
      'fields[certificates]',
      'fields[bundleIds]',
    ],
    handle: getProfile,
  },
  {
    method: 'GET',
    pattern: /^\/v1\/certificates$/,
    params: ['filter[certificateType]', 'filter[id]', 'filter[serialNumber]', 'fields[certificates]', 'limit', 'cursor'],
    handle: listCertificates,
  },
  { method: 'POST', pattern: /^\/v1\/certificates$/, params: [], handle: createCertificate, adminOnly: true },
  { method: 'GET', pattern: new RegExp(`^/v1/certificates/${ID}$`), params: ['fields[certificates]'], handle: getCertificate },
  { method: 'DELETE', pattern: new RegExp(`^/v1/certificates/${ID}$`), params: [], handle: revokeCertificate, adminOnly: true },
  {
    method: 'GET',
    pattern: /^\/v1\/bundleIds$/,
    params: ['filter[identifier]', 'filter[name]', 'filter[id]', 'filter[platform]', 'fields[bundleIds]', 'limit', 'cursor'],
    handle: listBundleIds,
  },
  { method: 'POST', pattern: /^\/v1\/bundleIds$/, params: [], handle: createBundleId, adminOnly: true },
  { method: 'GET', pattern: new RegExp(`^/v1/bundleIds/${ID}$`), params: ['fields[bundleIds]'], handle: getBundleId },
  { method: 'DELETE', pattern: new RegExp(`^/v1/bundleIds/${ID}$`), params: [], handle: deleteBundleId, adminOnly: true },
];

/** Answers one authenticated request; Apple's errors are thrown as SimAppleError. */
export function handleAppleRequest(request: AppleRequest): AppleReply {
  const onPath = routes.filter((route) => route.pattern.test(request.path));
  if (onPath.length === 0) throw appleErrors.unknownPath();
  const route = onPath.find((candidate) => candidate.method === request.method);
  if (!route) throw appleErrors.methodNotAllowed(request.method);
  for (const name of request.query.keys()) if (!route.params.includes(name)) throw appleErrors.parameterIllegal(name);
  if (route.adminOnly && request.role === 'DEVELOPER') throw appleErrors.forbidden();
  const id = route.pattern.exec(request.path)?.[1] ?? '';
  return route.handle(request, id);
}
