// The client's requests and the simulator's answers, checked against Apple's OpenAPI document (3.7.0).
import { AscClient } from '../../shared/apple/asc-client';
import { AscTokenCache } from '../../shared/apple/asc-jwt';
import { startAscSimulator, type AscSimulator, type SimulatedTeam } from '../../infra/asc-simulator/server';
import { recordingFetch, specViolations, type AscExchange } from '../support/asc-contract';
import { credentialsOf, newUdid } from '../support/asc-fixtures';
import { newSigningRequest } from '../../shared/domain/accounts/signing-identity';

let simulator: AscSimulator;

beforeAll(async () => {
  simulator = await startAscSimulator({ port: 0, processingSeconds: 60 });
});
afterAll(() => simulator.close());

const settle = (promise: Promise<unknown>) => promise.catch(() => undefined);

test("every exchange of the client, errors included, has the shapes of Apple's document", async () => {
  const exchanges: AscExchange[] = [];
  const clientOf = (team: SimulatedTeam, keyId = team.keyId) =>
    new AscClient({ ...credentialsOf(team), keyId }, { fetch: recordingFetch(exchanges), retryBaseDelayMs: 1, maxAttempts: 1 });
  const [instant, review, tiny] = await Promise.all([
    simulator.createTeam({ mode: 'instant' }),
    simulator.createTeam({ mode: 'review' }),
    simulator.createTeam({ mode: 'instant', deviceLimitPerClass: 1, hourlyRequestLimit: 2 }),
  ]);
  const client = clientOf(instant);

  const udid = newUdid();
  const device = await client.registerDevice({ name: 'iPhone', udid, platform: 'IOS' });
  await client.findDeviceByUdid(udid);
  await client.getDevice(device.id);
  await client.createAdHocProfile({
    name: 'contract',
    bundleIdId: instant.bundleIdId,
    certificateIds: [instant.certificateId],
    deviceIds: [device.id],
  });
  await client.getCertificate(instant.certificateId);
  await settle(client.registerDevice({ name: 'iPhone', udid, platform: 'IOS' }));
  await settle(client.registerDevice({ name: 'iPhone', udid: 'bad', platform: 'IOS' }));
  await settle(client.getDevice('NOSUCHDEV1'));

  const reviewClient = clientOf(review);
  const processing = await reviewClient.registerDevice({ name: 'iPhone', udid: newUdid(), platform: 'IOS' });
  await settle(
    reviewClient.createAdHocProfile({
      name: 'processing',
      bundleIdId: review.bundleIdId,
      certificateIds: [review.certificateId],
      deviceIds: [processing.id],
    }),
  );

  const tinyClient = clientOf(tiny);
  await tinyClient.registerDevice({ name: 'iPhone', udid: newUdid(), platform: 'IOS' });
  await settle(tinyClient.registerDevice({ name: 'iPhone', udid: newUdid(), platform: 'IOS' }));
  await settle(tinyClient.registerDevice({ name: 'iPhone', udid: newUdid(), platform: 'IOS' }));
  simulator.revokeCertificate(instant.teamId);
  await settle(client.getCertificate(instant.certificateId));
  await settle(clientOf(instant, 'NOSUCHKEY1').getDevice(device.id));

  expect(new Set(exchanges.map((exchange) => exchange.status))).toEqual(new Set([200, 201, 401, 403, 404, 409, 429]));
  expect(exchanges.flatMap(specViolations)).toEqual([]);
});

test("the simulator's other answers (lists, paging, includes, bundle ids) have Apple's shapes too", async () => {
  const team = await simulator.createTeam({ mode: 'instant' });
  const client = new AscClient(credentialsOf(team), { retryBaseDelayMs: 1 });
  const devices = [];
  for (let i = 0; i < 3; i++) devices.push(await client.registerDevice({ name: `iPhone ${i}`, udid: newUdid(), platform: 'IOS' }));
  const profile = await client.createAdHocProfile({
    name: 'shapes',
    bundleIdId: team.bundleIdId,
    certificateIds: [team.certificateId],
    deviceIds: devices.map((device) => device.id),
  });

  const exchanges: AscExchange[] = [];
  const record = recordingFetch(exchanges);
  const token = await new AscTokenCache().token(credentialsOf(team));
  for (const path of [
    '/v1/devices?limit=2',
    '/v1/devices?filter[status]=ENABLED&filter[platform]=IOS',
    '/v1/certificates?filter[certificateType]=IOS_DISTRIBUTION',
    `/v1/certificates/${team.certificateId}`,
    `/v1/bundleIds/${team.bundleIdId}`,
    `/v1/profiles/${profile.id}?include=bundleId,devices,certificates&limit[devices]=2`,
    `/v1/profiles/${profile.id}`,
  ]) {
    await record(`${simulator.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  }
  expect(exchanges.map((exchange) => exchange.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
  expect(exchanges.flatMap(specViolations)).toEqual([]);
});

test('the signing assets a connection makes (certificates from a CSR, bundle ids), their removal and their refusals have the shapes of Apple\'s document', async () => {
  const exchanges: AscExchange[] = [];
  const clientOf = (team: Pick<SimulatedTeam, 'baseUrl' | 'issuerId' | 'keyId' | 'privateKeyPem'>) =>
    new AscClient(credentialsOf(team as SimulatedTeam), { fetch: recordingFetch(exchanges), retryBaseDelayMs: 1, maxAttempts: 1 });
  const [team, developer, capped] = await Promise.all([
    simulator.createTeam({ mode: 'instant' }),
    simulator.createTeam({ mode: 'instant', keyRole: 'DEVELOPER' }),
    simulator.createTeam({ mode: 'instant', certificateLimit: 1 }),
  ]);
  const client = clientOf(team);
  const { csrPem } = await newSigningRequest('contract');
  expect(await client.listDistributionCertificates()).toHaveLength(1);
  const certificate = await client.createDistributionCertificate(csrPem);
  expect((await client.listDistributionCertificates()).map((c) => c.id)).toContain(certificate.id);
  await client.revokeCertificate(certificate.id);
  await settle(client.getCertificate(certificate.id));
  expect((await client.findBundleId('*'))?.id).toBe(team.bundleIdId);
  const bundleId = await client.createBundleId({ name: 'Contract', identifier: 'com.example.contract' });
  await client.getBundleId(bundleId.id);
  await settle(client.createBundleId({ name: 'Again', identifier: 'com.example.contract' }));
  await client.deleteBundleId(bundleId.id);
  await settle(client.getBundleId(bundleId.id));
  await settle(clientOf(developer).createDistributionCertificate(csrPem));
  await settle(clientOf(developer).createBundleId({ name: 'No', identifier: 'com.example.no' }));
  await settle(clientOf(capped).createDistributionCertificate(csrPem));
  const key = simulator.createKey(team.teamId, 'APP_MANAGER');
  await clientOf({ ...team, ...key }).listDistributionCertificates();
  simulator.revokeKey(team.teamId, key.keyId);
  await settle(clientOf({ ...team, ...key }).listDistributionCertificates());

  expect(new Set(exchanges.map((exchange) => `${exchange.method} ${exchange.status}`))).toEqual(
    new Set(['GET 200', 'POST 201', 'DELETE 204', 'GET 404', 'POST 409', 'POST 403', 'GET 401']),
  );
  expect(exchanges.flatMap(specViolations)).toEqual([]);
});

describe('the document check', () => {
  const base = 'https://api.appstoreconnect.apple.com';

  test('finds a request body and a response body that depart from the document', () => {
    const violations = specViolations({
      method: 'POST',
      url: `${base}/v1/devices`,
      requestBody: { data: { type: 'device', attributes: { name: 'x', udid: 'y' } } },
      status: 201,
      responseBody: { data: { id: 'D' } },
    });
    expect(violations).toEqual(
      expect.arrayContaining([
        expect.stringContaining('request/data/type must be equal to one of the allowed values'),
        expect.stringContaining("request/data/attributes must have required property 'platform'"),
        expect.stringContaining("201 response/data must have required property 'type'"),
        expect.stringContaining("201 response must have required property 'links'"),
      ]),
    );
  });

  test('finds undocumented paths, parameters, values and statuses', () => {
    const ok = { status: 200, responseBody: { data: [], links: { self: `${base}/v1/devices` } } };
    expect(specViolations({ method: 'GET', url: `${base}/v1/devices?sort=shoe`, ...ok })).toHaveLength(1);
    expect(specViolations({ method: 'GET', url: `${base}/v1/devices?cursor=x`, ...ok })).toEqual([
      'GET /v1/devices: query parameter cursor is not documented',
    ]);
    expect(specViolations({ method: 'GET', url: `${base}/v1/profiles/P?limit[devices]=51`, ...ok }).join()).toMatch(
      /limit\[devices\] must be <= 50/,
    );
    expect(specViolations({ method: 'GET', url: `${base}/v1/apps`, ...ok })).toEqual(['/v1/apps is not in the document']);
    expect(specViolations({ method: 'GET', url: `${base}/v1/devices`, status: 302, responseBody: undefined })).toEqual([
      'GET /v1/devices: status 302 is not documented',
    ]);
  });

  test('allows device statuses the document does not list, as the live API sends them', () => {
    const device = (status: string) => ({
      type: 'devices',
      id: 'D',
      attributes: { name: 'n', platform: 'IOS', udid: 'u', deviceClass: 'IPHONE', status },
    });
    for (const status of ['ENABLED', 'PROCESSING', 'INELIGIBLE']) {
      const violations = specViolations({
        method: 'GET',
        url: `${base}/v1/devices/D`,
        status: 200,
        responseBody: { data: device(status), links: { self: `${base}/v1/devices/D` } },
      });
      expect(violations).toEqual([]);
    }
  });
});
