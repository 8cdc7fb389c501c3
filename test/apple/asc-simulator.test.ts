// The simulator over raw HTTP: its control endpoints, Apple's token check, and the Apple behaviour the client
// does not exercise (paging, includes, parameter and entity errors, device classes, revocation effects).
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import { readP12 } from '../../shared/apple/p12-reader';
import { startAscSimulator, type AscSimulator, type SimulatedTeam } from '../../infra/asc-simulator/server';
import { serialNumber } from '../../infra/asc-simulator/pki';
import { newUdid } from '../support/asc-fixtures';

let simulator: AscSimulator;

beforeAll(async () => {
  simulator = await startAscSimulator({ port: 0 });
});
afterAll(() => simulator.close());

interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers, inspected field by field
}

async function call(method: string, url: string, options: { token?: string; body?: unknown; raw?: string } = {}): Promise<Reply> {
  const response = await fetch(url, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      'content-type': 'application/json',
    },
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

interface TokenOptions {
  iat?: number;
  lifetime?: number;
  audience?: string;
  keyId?: string;
  privateKeyPem?: string;
  alg?: string;
}

async function tokenFor(team: SimulatedTeam, options: TokenOptions = {}): Promise<string> {
  const iat = options.iat ?? Math.floor(Date.now() / 1000);
  const alg = options.alg ?? 'ES256';
  return new SignJWT({})
    .setProtectedHeader({ alg, kid: options.keyId ?? team.keyId, typ: 'JWT' })
    .setIssuer(team.issuerId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + (options.lifetime ?? 1200))
    .setAudience(options.audience ?? 'appstoreconnect-v1')
    .sign(await importPKCS8(options.privateKeyPem ?? team.privateKeyPem, alg));
}

function apple(team: SimulatedTeam) {
  let token: Promise<string> | undefined;
  return async (method: string, path: string, options: { body?: unknown; raw?: string } = {}) =>
    call(method, `${simulator.url}${path}`, { ...options, token: await (token ??= tokenFor(team)) });
}

const registration = (name: string, udid: string, platform = 'IOS') => ({
  data: { type: 'devices', attributes: { name, udid, platform } },
});

const adHocProfile = (team: SimulatedTeam, name: string, deviceIds: string[]) => ({
  data: {
    type: 'profiles',
    attributes: { name, profileType: 'IOS_APP_ADHOC' },
    relationships: {
      bundleId: { data: { type: 'bundleIds', id: team.bundleIdId } },
      certificates: { data: [{ type: 'certificates', id: team.certificateId }] },
      devices: { data: deviceIds.map((id) => ({ type: 'devices', id })) },
    },
  },
});

describe('control endpoints', () => {
  test('health answers ok with the number of teams', async () => {
    const reply = await call('GET', `${simulator.url}/_sim/health`);
    expect(reply).toMatchObject({ status: 200, body: { status: 'ok', teams: expect.any(Number) } });
  });

  test('POST /_sim/teams creates a team with a .p8 EC key and a .p12 that opens with its password', async () => {
    const reply = await call('POST', `${simulator.url}/_sim/teams`, { body: { mode: 'review', name: 'Review Co' } });
    expect(reply.status).toBe(201);
    const team = reply.body as SimulatedTeam;
    expect(team).toMatchObject({ mode: 'review', name: 'Review Co', baseUrl: simulator.url, teamId: expect.stringMatching(/^[A-Z0-9]{10}$/) });
    expect(team.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(createPrivateKey(team.privateKeyPem).asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(readP12(team.p12Base64, team.p12Password)).toMatchObject({
      hasPrivateKey: true,
      subjectCN: `iPhone Distribution: Review Co (${team.teamId})`,
      notAfter: new Date(team.membershipExpiresAt),
    });

    const teams = (await call('GET', `${simulator.url}/_sim/health`)).body.teams as number;
    expect(teams).toBeGreaterThanOrEqual(1);
  });

  test.each([{}, { mode: 'fast' }, { mode: 'instant', deviceLimitPerClass: 0 }])('POST /_sim/teams refuses %j', async (body) => {
    const reply = await call('POST', `${simulator.url}/_sim/teams`, { body });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual(expect.any(String));
  });

  test('revoke-certificate removes the certificate and invalidates its profiles', async () => {
    const team = await simulator.createTeam({ mode: 'instant' });
    const api = apple(team);
    const device = (await api('POST', '/v1/devices', { body: registration('iPhone', newUdid()) })).body.data;
    const profile = await api('POST', '/v1/profiles', { body: adHocProfile(team, 'p', [device.id]) });
    expect(profile.status).toBe(201);

    const revoked = await call('POST', `${simulator.url}/_sim/teams/${team.teamId}/revoke-certificate`);
    expect(revoked).toMatchObject({ status: 200, body: { teamId: team.teamId, certificateId: team.certificateId } });
    expect((await api('GET', `/v1/certificates/${team.certificateId}`)).status).toBe(404);
    expect((await api('GET', '/v1/certificates')).body.data).toEqual([]);
    const read = await api('GET', `/v1/profiles/${profile.body.data.id}`);
    expect(read.body.data.attributes.profileState).toBe('INVALID');
  });

  test('rate-limit lowers a team budget until Apple answers 429', async () => {
    const team = await simulator.createTeam({ mode: 'instant' });
    const api = apple(team);
    const set = await call('POST', `${simulator.url}/_sim/teams/${team.teamId}/rate-limit`, { body: { hourlyRequestLimit: 1 } });
    expect(set).toMatchObject({ status: 200, body: { teamId: team.teamId, hourlyRequestLimit: 1 } });

    const first = await api('GET', '/v1/devices');
    expect(first.headers.get('x-rate-limit')).toBe('user-hour-lim:1;user-hour-rem:0;');
    const second = await api('GET', '/v1/devices');
    expect(second.status).toBe(429);
    expect(second.body.errors[0]).toMatchObject({ status: '429', code: 'RATE_LIMIT_EXCEEDED' });
    expect(second.headers.get('x-rate-limit')).toBe('user-hour-lim:1;user-hour-rem:0;');
  });

  test('fault makes the next matching Apple requests fail, over HTTP as injectFault does in process', async () => {
    const team = await simulator.createTeam({ mode: 'instant' });
    const api = apple(team);
    const set = await call('POST', `${simulator.url}/_sim/teams/${team.teamId}/fault`, { body: { method: 'POST', path: '/v1/devices', effect: 'unavailable' } });
    expect(set).toMatchObject({ status: 200, body: { teamId: team.teamId, method: 'POST', path: '/v1/devices', effect: 'unavailable', times: 1 } });
    expect((await api('POST', '/v1/devices', { body: registration('iPhone', newUdid()) })).status).toBe(503);
    expect((await api('POST', '/v1/devices', { body: registration('iPhone', newUdid()) })).status).toBe(201);
    expect((await call('POST', `${simulator.url}/_sim/teams/${team.teamId}/fault`, { body: { method: 'POST', path: '/v1/devices', effect: 'explode' } })).status).toBe(400);
  });

  test('ineligible and enable set a device status on the team that has it', async () => {
    const team = await simulator.createTeam({ mode: 'review' });
    const api = apple(team);
    const udid = newUdid();
    const { id } = (await api('POST', '/v1/devices', { body: registration('iPhone', udid) })).body.data;
    expect((await api('GET', `/v1/devices/${id}`)).body.data.attributes.status).toBe('PROCESSING');

    const enabled = await call('POST', `${simulator.url}/_sim/devices/${udid}/enable?teamId=${team.teamId}`);
    expect(enabled).toMatchObject({ status: 200, body: { udid, devices: 1 } });
    expect((await api('GET', `/v1/devices/${id}`)).body.data.attributes.status).toBe('ENABLED');

    const ineligible = await call('POST', `${simulator.url}/_sim/devices/${udid.toLowerCase()}/ineligible`);
    expect(ineligible).toMatchObject({ status: 200, body: { devices: 1 } });
    expect((await api('GET', `/v1/devices/${id}`)).body.data.attributes.status).toBe('INELIGIBLE');
  });

  test.each([
    ['POST', '/_sim/devices/00008030-FFFFFFFFFFFFFFFF/ineligible'],
    ['POST', '/_sim/teams/NOSUCHTEAM/revoke-certificate'],
    ['POST', '/_sim/nothing'],
    ['GET', '/_sim/teams'],
  ])('%s %s is 404', async (method, path) => {
    expect((await call(method, `${simulator.url}${path}`)).status).toBe(404);
  });
});

describe("Apple's token check", () => {
  let team: SimulatedTeam;
  beforeAll(async () => {
    team = await simulator.createTeam({ mode: 'instant' });
  });

  async function statusWith(token: string | undefined): Promise<Reply> {
    return call('GET', `${simulator.url}/v1/devices`, { token });
  }

  test('a valid token is accepted, and reused', async () => {
    const token = await tokenFor(team);
    expect((await statusWith(token)).status).toBe(200);
    expect((await statusWith(token)).status).toBe(200);
  });

  const otherKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const now = () => Math.floor(Date.now() / 1000);

  test.each<[string, () => TokenOptions | undefined]>([
    ['no token', () => undefined],
    ['another key', () => ({ privateKeyPem: otherKey })],
    ['an unknown key id', () => ({ keyId: 'NOSUCHKEY1' })],
    ['an expired token', () => ({ iat: now() - 1300 })],
    ['a lifetime over 20 minutes', () => ({ lifetime: 1201 })],
    ['another audience', () => ({ audience: 'appstoreconnect-v2' })],
  ])('%s is 401 NOT_AUTHORIZED with a rate-limit header', async (_, options) => {
    const tokenOptions = options();
    const reply = await statusWith(tokenOptions && (await tokenFor(team, tokenOptions)));
    expect(reply.status).toBe(401);
    expect(reply.body.errors[0]).toMatchObject({ status: '401', code: 'NOT_AUTHORIZED' });
    expect(reply.headers.get('x-rate-limit')).toBe('user-hour-lim:3600;user-hour-rem:3600;');
  });

  test('an unsigned token is 401', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', kid: team.keyId, typ: 'JWT' })).toString('base64url');
    const claims = Buffer.from(
      JSON.stringify({ iss: team.issuerId, aud: 'appstoreconnect-v1', iat: now(), exp: now() + 600 }),
    ).toString('base64url');
    expect((await statusWith(`${header}.${claims}.`)).status).toBe(401);
  });
});

describe('Apple endpoints', () => {
  let team: SimulatedTeam;
  let api: ReturnType<typeof apple>;
  beforeAll(async () => {
    team = await simulator.createTeam({ mode: 'instant' });
    api = apple(team);
  });

  test('every answer carries the remaining hourly budget, counting down', async () => {
    const first = Number(/user-hour-rem:(\d+)/.exec((await api('GET', '/v1/devices')).headers.get('x-rate-limit') ?? '')?.[1]);
    const second = Number(/user-hour-rem:(\d+)/.exec((await api('GET', '/v1/nothing')).headers.get('x-rate-limit') ?? '')?.[1]);
    expect(second).toBe(first - 1);
  });

  test('the device class comes from the platform and the name; each class has its own limit', async () => {
    const small = await simulator.createTeam({ mode: 'instant', deviceLimitPerClass: 2 });
    const api = apple(small);
    const ipads = [newUdid(), newUdid()];
    for (const udid of ipads) {
      const reply = await api('POST', '/v1/devices', { body: registration('Family IPAD', udid) });
      expect(reply.body.data.attributes).toMatchObject({ deviceClass: 'IPAD', model: 'iPad', status: 'ENABLED' });
    }
    const full = await api('POST', '/v1/devices', { body: registration('iPad mini', newUdid()) });
    expect(full.status).toBe(403);
    expect(full.body.errors[0]).toMatchObject({
      code: 'FORBIDDEN_ERROR',
      detail: 'Your development team has reached the maximum number of registered iPad devices.',
    });

    const mac = await api('POST', '/v1/devices', { body: registration('Studio', newUdid(40), 'MAC_OS') });
    expect(mac.body.data.attributes).toMatchObject({ deviceClass: 'MAC', platform: 'MAC_OS' });
    const phone = await api('POST', '/v1/devices', { body: registration('Ana', newUdid()) });
    expect(phone.body.data.attributes.deviceClass).toBe('IPHONE');
  });

  test('a profile keeps only ENABLED iOS devices: a Mac is left out', async () => {
    const phone = (await api('POST', '/v1/devices', { body: registration('Phone', newUdid(40)) })).body.data;
    const mac = (await api('POST', '/v1/devices', { body: registration('Studio', newUdid(40), 'MAC_OS') })).body.data;
    const created = await api('POST', '/v1/profiles', { body: adHocProfile(team, 'mixed', [phone.id, mac.id]) });
    expect(created.status).toBe(201);
    expect(created.body.data.relationships.devices).not.toHaveProperty('data');

    const read = await api('GET', `/v1/profiles/${created.body.data.id}?include=devices,bundleId,certificates&limit[devices]=1`);
    expect(read.body.data.relationships.devices).toMatchObject({
      data: [{ type: 'devices', id: phone.id }],
      meta: { paging: { total: 1, limit: 1 } },
    });
    expect(read.body.data.relationships.bundleId.data).toEqual({ type: 'bundleIds', id: team.bundleIdId });
    expect(read.body.included.map((resource: { type: string }) => resource.type).sort()).toEqual([
      'bundleIds',
      'certificates',
      'devices',
    ]);
  });

  test('lists page with a cursor link and paging meta', async () => {
    for (const name of ['P1', 'P2', 'P3']) await api('POST', '/v1/devices', { body: registration(name, newUdid()) });
    const all = (await api('GET', '/v1/devices?limit=200')).body;
    expect(all.meta.paging.total).toBeGreaterThanOrEqual(3);
    const first = (await api('GET', '/v1/devices?limit=2')).body;
    expect(first.data).toHaveLength(2);
    expect(first.meta.paging).toEqual({ total: all.meta.paging.total, limit: 2 });
    const next = new URL(first.links.next as string);
    const second = (await api('GET', `${next.pathname}${next.search}`)).body;
    expect(second.data[0].id).toBe(all.data[2].id);
  });

  test('filters by udid (comma-separated, any case) and by id', async () => {
    const devices = (await api('GET', '/v1/devices?limit=200')).body.data as { id: string; attributes: { udid: string } }[];
    const [a, b] = devices;
    const byUdid = await api('GET', `/v1/devices?filter[udid]=${a?.attributes.udid.toLowerCase()},${b?.attributes.udid}`);
    expect(byUdid.body.data.map((device: { id: string }) => device.id)).toEqual([a?.id, b?.id]);
    const byId = await api('GET', `/v1/devices?filter[id]=${b?.id}`);
    expect(byId.body.data).toHaveLength(1);
  });

  test('the bundle id is the team wildcard', async () => {
    const reply = await api('GET', `/v1/bundleIds/${team.bundleIdId}`);
    expect(reply.body.data).toMatchObject({ type: 'bundleIds', attributes: { identifier: '*', seedId: team.teamId, platform: 'IOS' } });
  });

  test.each<[string, string, number, string, { body?: unknown; raw?: string }]>([
    ['GET', '/v1/devices?sort=name', 400, 'PARAMETER_ERROR.ILLEGAL', {}],
    ['GET', '/v1/devices?limit=201', 400, 'PARAMETER_ERROR.INVALID', {}],
    ['GET', '/v1/devices?cursor=bm9wZQ', 400, 'PARAMETER_ERROR.INVALID', {}],
    ['GET', '/v1/profiles/NOSUCHPROF', 404, 'NOT_FOUND', {}],
    ['GET', '/v1/apps', 404, 'NOT_FOUND', {}],
    ['DELETE', '/v1/devices', 405, 'METHOD_NOT_ALLOWED', {}],
    ['POST', '/v1/devices', 422, 'ENTITY_UNPROCESSABLE', { raw: '{"data":' }],
    ['POST', '/v1/devices', 409, 'ENTITY_ERROR.ATTRIBUTE.REQUIRED', { body: { data: { type: 'devices', attributes: { name: 'x', platform: 'IOS' } } } }],
    ['POST', '/v1/devices', 409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', { body: registration('x', newUdid(), 'WATCH_OS') }],
  ])('%s %s answers %i %s', async (method, path, status, code, options) => {
    const reply = await api(method, path, options);
    expect(reply.status).toBe(status);
    expect(reply.body.errors[0]).toMatchObject({ status: String(status), code });
  });

  test('a missing attribute names its JSON pointer', async () => {
    const reply = await api('POST', '/v1/devices', { body: { data: { type: 'devices', attributes: { name: 'x', platform: 'IOS' } } } });
    expect(reply.body.errors[0].source).toEqual({ pointer: '/data/attributes/udid' });
  });

  test('include values outside bundleId, devices, certificates are refused', async () => {
    const phone = (await api('POST', '/v1/devices', { body: registration('Phone', newUdid(40)) })).body.data;
    const created = await api('POST', '/v1/profiles', { body: adHocProfile(team, 'include', [phone.id]) });
    const reply = await api('GET', `/v1/profiles/${created.body.data.id}?include=apps`);
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0]).toMatchObject({ code: 'PARAMETER_ERROR.INVALID', source: { parameter: 'include' } });
  });
});

test('certificate serials are positive INTEGERs in their shortest form, as Apple makes them (what a reader reads back is what was made)', () => {
  // A first byte of 0 (1 draw in 128 before) was dropped by Node's X509Certificate, and a connect test compared
  // the serial it read from the customer's .p12 with the one the simulator reported.
  for (let i = 0; i < 5_000; i++) {
    const first = parseInt(serialNumber().slice(0, 2), 16);
    expect(first >= 0x01 && first <= 0x7f).toBe(true);
  }
});
