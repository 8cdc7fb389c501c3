/**
 * UDID capture through the local API with the device simulator: a genuine device is captured and sent back
 * with a ticket that verifies offline; every forgery is refused with a 4xx page and stores nothing.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge, { nativelySigningKey } from '../../shared/apple/forge';
import { importJWK, jwtVerify } from 'jose';
import { startTestApi, type TestApi } from '../support/api';
import { makeOwner, makeTenant, type Owner } from '../support/fixtures';
import { setClock } from '../../shared/clock';
import { listTenantCaptures } from '../../shared/db/repositories/udid-capture-repository';
import { changeTenantSettings } from '../../shared/domain/tenants/tenant-service';
import { signingKeys } from '../../shared/domain/udid-capture/capture-keys';
import { setProfileSigner } from '../../shared/domain/udid-capture/profile-signer';
import { addTrustAnchor } from '../../shared/domain/udid-capture/trust-anchors';
import { createDeviceCa, certificatePem, type DeviceCa } from '../../infra/device-simulator/device-pki';
import { postAnswer, readProfile } from '../../infra/device-simulator/device';
import { buildAnswer, foreignDeviceCa, type Forgery } from '../../infra/device-simulator/run';

import { jest } from '@jest/globals';
jest.setTimeout(90_000);

let api: TestApi;
let ca: DeviceCa;
let owner: Owner;
beforeAll(async () => {
  api = await startTestApi();
  ca = createDeviceCa();
  foreignDeviceCa();
  await addTrustAnchor(Buffer.from(certificatePem(ca.root)), 1_700_000_000);
  owner = await makeOwner();
  await changeTenantSettings('default', { settings: { returnTargets: [SHOP] } });
}, 180_000);

/** A storefront's return target, registered on each tenant whose profile returns to it. */
const SHOP = 'https://shop.example.com/done';
async function tenantWithShop() {
  const tenant = await makeTenant();
  await changeTenantSettings(tenant.tenantId, { settings: { returnTargets: [SHOP] } });
  return tenant;
}
afterAll(() => api.close());

const udid = () => `00008030-${Math.floor(Math.random() * 2 ** 52).toString(16).toUpperCase().padStart(16, '0')}`;

async function profileOf(path: string, host?: string) {
  const res = await api.request('GET', path, host ? { headers: { Host: host } } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/x-apple-aspen-config');
  return readProfile(Buffer.from(String(res.body.raw), 'utf8'));
}

const callbackUrl = (profileUrl: string) => `${api.url}${new URL(profileUrl).pathname}`;

async function capture(options: { forgery?: Forgery; digest?: 'sha1' | 'sha256'; device?: string } = {}) {
  const profile = await profileOf(`/api/rjy/${owner.source.source_id}/udid.mobileconfig`);
  const device = options.device ?? udid();
  const answer = buildAnswer(ca, { udid: device }, profile.challenge, options.forgery, options.digest);
  return { device, answer, profile, result: await postAnswer(callbackUrl(profile.url), answer) };
}

async function capturesStored(): Promise<number> {
  return (await listTenantCaptures('default')).length;
}

describe('the profile', () => {
  test("a source's profile is a Profile Service payload asking for the attributes, calling back on the same host", async () => {
    const profile = await profileOf(`/api/rjy/${owner.source.source_id}/udid.mobileconfig`);
    expect(profile.signed).toBe(false);
    expect(profile.url).toBe(`${api.url}/api/udid/callback`);
    expect(profile.attributes).toEqual(['UDID', 'PRODUCT', 'VERSION', 'SERIAL', 'DEVICE_NAME']);
    expect(profile.challenge.split('.')).toHaveLength(3);
  });

  test('the tenant profile needs a return target, refuses unsafe ones and a user of another tenant, with a 4xx page', async () => {
    const cases: [string, string, number][] = [
      ['/api/udid/profile', 'return_required', 400],
      [`/api/udid/profile?return=${encodeURIComponent('javascript:alert(1)')}`, 'invalid_value', 400],
      [`/api/udid/profile?return=${encodeURIComponent('http://shop.example.com/done')}`, 'invalid_value', 400],
      [`/api/udid/profile?return=${encodeURIComponent('https://shop.example.com/done#x')}`, 'invalid_value', 400],
      [`/api/udid/profile?return=${encodeURIComponent('https://shop.example.com/done')}&user=${encodeURIComponent('../x')}`, 'invalid_value', 400],
      [`/api/udid/profile?return=${encodeURIComponent('https://shop.example.com/done')}&user=u_nobody`, 'invalid_value', 400],
      [`/api/udid/profile?return=${encodeURIComponent('https://shop.example.com/done\u0000')}`, 'invalid_value', 400],
      ['/api/rjy/nope/udid.mobileconfig', 'source_not_found', 404],
    ];
    for (const [path, reason, status] of cases) {
      const res = await api.request('GET', path, { headers: { 'X-Lang': 'es' } });
      expect([path, res.status, res.headers.get('x-error')]).toEqual([path, status, reason]);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('content-language')).toBe('es');
    }
  });

  test('signed with the tenant signer: openssl cms -verify accepts it against the signer chain, and the plist is inside', async () => {
    const { tenantId, host } = await tenantWithShop();
    const dir = mkdtempSync(join(tmpdir(), 'signer-'));
    const { p12, chainPem } = makeSigner();
    await setProfileSigner(tenantId, p12, 'secret', 1_700_000_000);
    const res = await new Promise<Buffer>((resolve, reject) => {
      void import('node:http').then(({ request }) =>
        request(`${api.url}/api/udid/profile?return=${encodeURIComponent('https://shop.example.com/done')}`, { headers: { Host: host } }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => (r.statusCode === 200 && r.headers['x-profile-signed'] === '1' ? resolve(Buffer.concat(chunks)) : reject(new Error(`status ${r.statusCode}`))));
        }).end(),
      );
    });
    writeFileSync(join(dir, 'profile.mobileconfig'), res);
    writeFileSync(join(dir, 'ca.pem'), chainPem);
    const out = execFileSync('openssl', ['cms', '-verify', '-inform', 'DER', '-in', join(dir, 'profile.mobileconfig'), '-CAfile', join(dir, 'ca.pem'), '-purpose', 'any'], { stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8');
    expect(out).toContain('<string>Profile Service</string>');
    expect(out).toContain('<string>Fixture tenant</string>');
    expect(readProfile(res).signed).toBe(true);
  });
});

describe('the callback', () => {
  test('a genuine device: 301 to the install page with only its one-time st (no UDID, no ticket); the capture is recorded', async () => {
    const before = await capturesStored();
    const { device, result } = await capture();
    expect(result.status).toBe(301);
    const location = new URL(result.location!);
    expect(location.pathname).toBe(`/api/rjy/${owner.source.source_id}/install`);
    expect([...location.searchParams.keys()]).toEqual(['st']);
    expect(result.location).not.toContain(device);
    expect(await capturesStored()).toBe(before + 1);

    const list = await api.request('GET', `/api/udid/captures?token=${owner.token}`);
    expect(list.body.code).toBe(1);
    const captures = list.body.data!.captures as { udid: string; verified: boolean; source_id: string }[];
    expect(captures[0]).toMatchObject({ udid: device, verified: true, source_id: owner.source.source_id });

    // The source's owner is told: a udid.captured event, written with the capture, without the serial number.
    const events = await api.request('GET', '/api/user/events?types=udid.captured', { headers: owner.bearer });
    const captured = (events.body.data!.events as { type: string; data: Record<string, unknown> }[]).filter((e) => e.data.udid === device);
    expect(captured).toEqual([expect.objectContaining({ type: 'udid.captured', data: expect.objectContaining({ udid: device, product: 'iPhone15,2', source_id: owner.source.source_id }) })]);
    expect(captured[0]!.data).not.toHaveProperty('serial');
  });

  test('a storefront capture: 301 to the registered target with the UDID and a ticket that verifies offline, naming reseller, source and target', async () => {
    const profile = await profileOf(`/api/rjy/${owner.source.source_id}/udid.mobileconfig?return=${encodeURIComponent(`${SHOP}?order=7`)}`);
    const device = udid();
    const result = await postAnswer(callbackUrl(profile.url), buildAnswer(ca, { udid: device }, profile.challenge));
    expect(result.status).toBe(301);
    const location = new URL(result.location!);
    expect(`${location.origin}${location.pathname}`).toBe(SHOP);
    expect([location.searchParams.get('order'), location.searchParams.get('udid'), location.searchParams.get('st')]).toEqual(['7', device, null]);
    const keys = await signingKeys('default', 1_700_000_000);
    const { payload, protectedHeader } = await jwtVerify(location.searchParams.get('ticket')!, await importJWK(keys.ticketPublicJwk, 'ES256'), { audience: 'udid-capture' });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: keys.ticketKid });
    expect(payload).toMatchObject({ sub: device, tid: 'default', sid: owner.source.source_id, own: owner.user.userId, ret: `${SHOP}?order=7`, product: 'iPhone15,2', ios: '17.4' });
    expect(payload.exp! - payload.iat!).toBe(86_400);
  });

  test('SHA-256 signed attributes are accepted as well as SHA-1', async () => {
    expect((await capture({ digest: 'sha256' })).result.status).toBe(301);
  });

  test.each([
    ['tampered', 'device_signature_invalid'],
    ['self-signed', 'device_signer_untrusted'],
    ['foreign-ca', 'device_signer_untrusted'],
  ] as const)('a %s answer is refused (%s) and stores nothing', async (forgery, reason) => {
    const before = await capturesStored();
    const { result } = await capture({ forgery });
    expect([result.status, result.error]).toEqual([400, reason]);
    expect(result.location).toBeNull();
    expect(await capturesStored()).toBe(before);
  });

  test('a replayed answer is refused: the challenge is single-use', async () => {
    const { answer, profile } = await capture();
    const before = await capturesStored();
    const again = await postAnswer(callbackUrl(profile.url), answer);
    expect([again.status, again.error]).toEqual([400, 'challenge_used']);
    expect(await capturesStored()).toBe(before);
  });

  test('an answer after 15 minutes is refused as expired', async () => {
    const profile = await profileOf(`/api/rjy/${owner.source.source_id}/udid.mobileconfig`);
    const answer = buildAnswer(ca, { udid: udid() }, profile.challenge);
    const before = await capturesStored();
    const restore = setClock(() => Date.now() + 15 * 60_000 + 5_000);
    try {
      const result = await postAnswer(callbackUrl(profile.url), answer);
      expect([result.status, result.error]).toEqual([400, 'challenge_expired']);
    } finally {
      restore();
    }
    expect(await capturesStored()).toBe(before);
  });

  test("another tenant's challenge is refused on this tenant's host", async () => {
    const other = await tenantWithShop();
    const profile = await profileOf(`/api/udid/profile?return=${encodeURIComponent('https://shop.example.com/done')}`, other.host);
    expect(new URL(profile.url).host).toBe(other.host);
    const answer = buildAnswer(ca, { udid: udid() }, profile.challenge);
    const before = await capturesStored();
    const result = await postAnswer(`${api.url}/api/udid/callback`, answer);
    expect([result.status, result.error]).toEqual([400, 'challenge_invalid']);
    expect(await capturesStored()).toBe(before);
    expect(await listTenantCaptures(other.tenantId)).toEqual([]);
  });

  test('hostile bodies: wrong content type, not DER, trailing bytes, empty, too large → 4xx, nothing stored', async () => {
    const before = await capturesStored();
    const { answer } = await capture({ forgery: 'self-signed' });
    const cases: [Buffer, Record<string, string>, number, string][] = [
      [answer, { 'Content-Type': 'application/json' }, 400, 'malformed_body'],
      [answer, { 'Content-Type': 'text/plain' }, 400, 'device_content_type'],
      [Buffer.from('not der at all'), {}, 400, 'device_response_malformed'],
      [Buffer.from([0x30, 0x82, 0xff, 0xff, 0x01]), {}, 400, 'device_response_malformed'],
      [Buffer.concat([answer, Buffer.from([0])]), {}, 400, 'device_response_malformed'],
      [Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01]), {}, 400, 'device_response_malformed'],
      [Buffer.alloc(0), {}, 400, 'device_response_malformed'],
      [Buffer.alloc(70 * 1024, 0x30), {}, 413, 'body_too_large'],
    ];
    for (const [body, headers, status, reason] of cases) {
      const result = await postAnswer(`${api.url}/api/udid/callback`, body, headers);
      expect([reason, result.status, result.error]).toEqual([reason, status, reason]);
    }
    expect(await capturesStored()).toBe(before);
  });
});

describe('captures for resellers', () => {
  test('only the caller’s captures, newest first, paginated; bad paging values are refused by name', async () => {
    const mine = await makeOwner();
    const profilePath = `/api/rjy/${mine.source.source_id}/udid.mobileconfig`;
    const devices: string[] = [];
    for (let i = 0; i < 3; i++) {
      const profile = await profileOf(profilePath);
      const device = udid();
      devices.push(device);
      const restore = setClock(() => Date.now() + i * 1000);
      try {
        expect((await postAnswer(callbackUrl(profile.url), buildAnswer(ca, { udid: device }, profile.challenge))).status).toBe(301);
      } finally {
        restore();
      }
    }
    const first = await api.request('POST', '/api/udid/captures', { form: { token: mine.token, limit: '2' } });
    const page1 = first.body.data as { captures: { udid: string }[]; next_cursor: string | null };
    expect(page1.captures.map((c) => c.udid)).toEqual([devices[2], devices[1]]);
    const second = await api.request('GET', `/api/udid/captures?token=${mine.token}&limit=2&cursor=${encodeURIComponent(page1.next_cursor!)}`);
    expect((second.body.data as typeof page1).captures.map((c) => c.udid)).toEqual([devices[0]]);
    for (const bad of ['limit=0', 'limit=101', 'limit=1x', 'cursor=zzz', 'limit=%00']) {
      const res = await api.request('GET', `/api/udid/captures?token=${mine.token}&${bad}`);
      expect([bad, res.body.code, res.body.data?.error]).toEqual([bad, 40002, 'invalid_value']);
    }
    const none = await api.request('GET', `/api/udid/captures?token=nope`);
    expect(none.body.code).toBe(10);
  });
});

function nativeKeys(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const key = nativelySigningKey(privateKey);
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

/** A CA and a profile-signing identity under it, as a .p12 (password `secret`), and the CA's PEM. */
function makeSigner(): { p12: string; chainPem: string } {
  const keys = nativeKeys();
  const caKeys = nativeKeys();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = caKeys.publicKey;
  caCert.serialNumber = '01';
  caCert.validity.notBefore = new Date(Date.now() - 86_400_000);
  caCert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  caCert.setSubject([{ name: 'commonName', value: 'Reseller Test CA' }]);
  caCert.setIssuer([{ name: 'commonName', value: 'Reseller Test CA' }]);
  caCert.setExtensions([{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true }]);
  caCert.sign(caKeys.privateKey, forge.md.sha256.create());
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '02';
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'shop.example.com' }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([{ name: 'keyUsage', digitalSignature: true }]);
  cert.sign(caKeys.privateKey, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert, caCert], 'secret', { algorithm: '3des' });
  return { p12: Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary').toString('base64'), chainPem: forge.pki.certificateToPem(caCert) };
}
