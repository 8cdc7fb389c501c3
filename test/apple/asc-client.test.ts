// The App Store Connect client against the simulator, end to end over HTTP: every operation, every typed error.
import { generateKeyPairSync } from 'node:crypto';
import { AscClient, type AscClientOptions } from '../../shared/apple/asc-client';
import { CertificateNotFoundError, DeviceClassFullError } from '../../shared/apple/asc-errors';
import { AscTokenCache } from '../../shared/apple/asc-jwt';
import { startAscSimulator, type AscSimulator, type SimulatedTeam } from '../../infra/asc-simulator/server';
import { appleFailure as failure, credentialsOf, newUdid } from '../support/asc-fixtures';

let simulator: AscSimulator;

beforeAll(async () => {
  simulator = await startAscSimulator({ port: 0, processingSeconds: 60 });
});
afterAll(() => simulator.close());

function clientOf(team: SimulatedTeam, options: AscClientOptions = {}): AscClient {
  return new AscClient(credentialsOf(team), { retryBaseDelayMs: 1, ...options });
}

/** A fetch that counts the calls that reach the network. */
function countingFetch(): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  return {
    fetch: (input, init) => {
      calls++;
      return fetch(input, init);
    },
    calls: () => calls,
  };
}

describe('an instant team', () => {
  let team: SimulatedTeam;
  let client: AscClient;

  beforeAll(async () => {
    team = await simulator.createTeam({ mode: 'instant', name: 'Acme Resell' });
    client = clientOf(team);
  });

  test('registers a device, finds it by UDID in any case, reads it, and reports the hourly budget', async () => {
    const udid = newUdid();
    const device = await client.registerDevice({ name: 'Ana iPhone', udid, platform: 'IOS' });
    expect(device).toMatchObject({ udid, name: 'Ana iPhone', platform: 'IOS', deviceClass: 'IPHONE', status: 'ENABLED' });

    expect(await client.findDeviceByUdid(udid.toLowerCase())).toEqual(device);
    expect(await client.getDevice(device.id)).toEqual(device);
    expect(await client.findDeviceByUdid(newUdid())).toBeUndefined();
    expect(client.rateLimit).toEqual({ limit: 3600, remaining: 3600 - 4 });
  });

  test('creates an ad hoc profile listing the device, CMS-signed, within the membership', async () => {
    const udid = newUdid(40);
    const device = await client.registerDevice({ name: 'Old iPhone', udid, platform: 'IOS' });
    const profile = await client.createAdHocProfile({
      name: `adhoc ${udid}`,
      bundleIdId: team.bundleIdId,
      certificateIds: [team.certificateId],
      deviceIds: [device.id],
    });

    expect(profile).toMatchObject({ name: `adhoc ${udid}`, profileState: 'ACTIVE', deviceIds: [device.id] });
    expect(profile.decoded).toMatchObject({ udids: [udid], teamId: team.teamId, teamName: 'Acme Resell', uuid: profile.uuid });
    expect(profile.decoded.signedByCert.subjectCN).toBe('ASC Simulator Worldwide Developer Relations CA');
    expect(new Date(profile.expirationDate).getTime()).toBeLessThanOrEqual(Date.parse(team.membershipExpiresAt));
    const certificate = await client.getCertificate(team.certificateId);
    expect(profile.decoded.developerCertificates).toEqual([certificate.certificateContent]);
  });

  test('reads the distribution certificate', async () => {
    const certificate = await client.getCertificate(team.certificateId);
    expect(certificate).toMatchObject({
      id: team.certificateId,
      certificateType: 'IOS_DISTRIBUTION',
      name: `iPhone Distribution: Acme Resell (${team.teamId})`,
      expirationDate: team.membershipExpiresAt,
    });
  });

  test('a UDID already on the team is device_exists, whatever its case, without retrying', async () => {
    const udid = newUdid(40);
    await client.registerDevice({ name: 'iPhone', udid, platform: 'IOS' });
    const counter = countingFetch();
    const error = await failure(
      clientOf(team, { fetch: counter.fetch }).registerDevice({ name: 'again', udid: udid.toUpperCase(), platform: 'IOS' }),
    );
    expect(error).toMatchObject({ kind: 'device_exists', status: 409, code: 'ENTITY_ERROR' });
    expect(counter.calls()).toBe(1);
  });

  test.each(['not-a-udid', '00008030-0123456789ABCDE', `${'a'.repeat(39)}g`])('%s is invalid_udid', async (udid) => {
    const error = await failure(client.registerDevice({ name: 'iPhone', udid, platform: 'IOS' }));
    expect(error).toMatchObject({ kind: 'invalid_udid', status: 409, code: 'ENTITY_ERROR.ATTRIBUTE.INVALID' });
  });

  test('an unknown device id is not_found', async () => {
    expect(await failure(client.getDevice('NOSUCHDEV1'))).toMatchObject({ kind: 'not_found', status: 404 });
  });
});

describe('device classes', () => {
  test('the 101st iPhone is refused with the class, while iPads still fit', async () => {
    const team = await simulator.createTeam({ mode: 'instant' });
    const client = clientOf(team);
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          client.registerDevice({ name: `iPhone ${batch * 10 + i}`, udid: newUdid(), platform: 'IOS' }),
        ),
      );
    }
    const error = await failure(client.registerDevice({ name: 'iPhone 101', udid: newUdid(), platform: 'IOS' }));
    expect(error).toBeInstanceOf(DeviceClassFullError);
    expect(error).toMatchObject({ kind: 'device_class_full', deviceClass: 'iphone', status: 403 });

    const ipad = await client.registerDevice({ name: "Bo's iPad", udid: newUdid(), platform: 'IOS' });
    expect(ipad.deviceClass).toBe('IPAD');
  });
});

describe('a review team', () => {
  let team: SimulatedTeam;
  let client: AscClient;

  beforeAll(async () => {
    team = await simulator.createTeam({ mode: 'review' });
    client = clientOf(team);
  });

  const profileFor = (deviceIds: string[]) =>
    client.createAdHocProfile({
      name: `review ${deviceIds.join(' ')}`,
      bundleIdId: team.bundleIdId,
      certificateIds: [team.certificateId],
      deviceIds,
    });

  test('keeps a new device PROCESSING, and a profile of only such devices is devices_processing', async () => {
    const device = await client.registerDevice({ name: 'iPhone', udid: newUdid(), platform: 'IOS' });
    expect(device.status).toBe('PROCESSING');
    expect((await client.getDevice(device.id)).status).toBe('PROCESSING');
    expect(await failure(profileFor([device.id]))).toMatchObject({ kind: 'devices_processing', status: 409 });
  });

  test('leaves processing devices out of a profile, and says which devices are in', async () => {
    const ready = await client.registerDevice({ name: 'iPhone A', udid: newUdid(), platform: 'IOS' });
    const waiting = await client.registerDevice({ name: 'iPhone B', udid: newUdid(), platform: 'IOS' });
    expect(simulator.enableDevice(ready.udid, team.teamId)).toBe(1);

    const profile = await profileFor([ready.id, waiting.id]);
    expect(profile.deviceIds).toEqual([ready.id]);
    expect(profile.decoded.udids).toEqual([ready.udid]);
  });

  test('an ineligible device is reported as such and cannot be provisioned', async () => {
    const device = await client.registerDevice({ name: 'iPhone', udid: newUdid(), platform: 'IOS' });
    simulator.markDeviceIneligible(device.udid);
    expect((await client.getDevice(device.id)).status).toBe('INELIGIBLE');
    expect(await failure(profileFor([device.id]))).toMatchObject({ kind: 'devices_processing' });
  });

  test('a device turns ENABLED once the processing time has passed', async () => {
    const quick = await simulator.createTeam({ mode: 'review', processingSeconds: 0.3 });
    const quickClient = clientOf(quick);
    const device = await quickClient.registerDevice({ name: 'iPhone', udid: newUdid(), platform: 'IOS' });
    expect(device.status).toBe('PROCESSING');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await quickClient.getDevice(device.id)).status).toBe('ENABLED');
  });
});

describe('revocation', () => {
  test('a revoked distribution certificate is CertificateNotFoundError', async () => {
    const team = await simulator.createTeam({ mode: 'instant' });
    const client = clientOf(team);
    await client.getCertificate(team.certificateId);
    simulator.revokeCertificate(team.teamId);

    const error = await failure(client.getCertificate(team.certificateId));
    expect(error).toBeInstanceOf(CertificateNotFoundError);
    expect(error).toMatchObject({ kind: 'not_found', certificateId: team.certificateId, status: 404 });
  });
});

describe('rate limit', () => {
  test('429 is retried, then rate_limited, with the budget reported as spent', async () => {
    const team = await simulator.createTeam({ mode: 'instant', hourlyRequestLimit: 2 });
    const counter = countingFetch();
    const client = clientOf(team, { fetch: counter.fetch });
    await client.findDeviceByUdid(newUdid());
    await client.findDeviceByUdid(newUdid());
    expect(client.rateLimit).toEqual({ limit: 2, remaining: 0 });

    const error = await failure(client.findDeviceByUdid(newUdid()));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    expect(counter.calls()).toBe(2 + 3);
  });
});

describe('a flaky edge in front of Apple', () => {
  test('503s are retried for reads', async () => {
    const team = await simulator.createTeam({ mode: 'instant' });
    let calls = 0;
    const flaky: typeof fetch = (input, init) => {
      calls++;
      return calls <= 2 ? Promise.resolve(new Response('Service Unavailable', { status: 503 })) : fetch(input, init);
    };
    expect(await clientOf(team, { fetch: flaky }).findDeviceByUdid(newUdid())).toBeUndefined();
    expect(calls).toBe(3);
  });

  test('a registration is not sent twice blindly: a 503 goes back to the caller, who looks the UDID up', async () => {
    const team = await simulator.createTeam({ mode: 'instant' });
    let calls = 0;
    const flaky: typeof fetch = (input, init) => {
      calls++;
      return calls <= 1 ? Promise.resolve(new Response('Service Unavailable', { status: 503 })) : fetch(input, init);
    };
    const error = await failure(clientOf(team, { fetch: flaky }).registerDevice({ name: 'iPhone', udid: newUdid(), platform: 'IOS' }));
    expect(error).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(calls).toBe(1);
  });
});

describe('authentication', () => {
  test('a token signed with another key is unauthorized, and not retried', async () => {
    const team = await simulator.createTeam({ mode: 'instant' });
    const otherKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const counter = countingFetch();
    const client = new AscClient(
      { ...credentialsOf(team), privateKeyPem: otherKey },
      { fetch: counter.fetch, tokens: new AscTokenCache(), retryBaseDelayMs: 1 },
    );
    const error = await failure(client.getDevice('ANYDEVICE1'));
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, code: 'NOT_AUTHORIZED' });
    expect(counter.calls()).toBe(1);
  });

  test('a key id the team does not have is unauthorized', async () => {
    const team = await simulator.createTeam({ mode: 'instant' });
    const error = await failure(new AscClient({ ...credentialsOf(team), keyId: 'UNKNOWNKEY' }).getDevice('ANYDEVICE1'));
    expect(error.kind).toBe('unauthorized');
  });
});

