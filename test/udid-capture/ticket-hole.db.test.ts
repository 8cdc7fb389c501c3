/**
 * Issue 39: a capture proves a device once, to the page it came from. Each demonstration of the issue, tried as
 * its attacker did, over HTTP with the device simulator: the capture's redirect to a customer page carries only
 * the one-time `st`; a capture ticket renders nothing; a ticket is refused on another reseller's source or
 * tenant; `return` may only be the tenant's own hosts or a target its operator registered (at the profile link
 * and again at the callback); a revoked device URL is not brought back by anything a customer held.
 */
import { jest } from '@jest/globals';
import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, makeTenant, newUdid, type Owner } from '../support/fixtures';
import { call, enter, trustedDeviceCa } from '../self-service/customer-support';
import type { DeviceCa } from '../../infra/device-simulator/device-pki';
import { buildAnswer, runDevice } from '../../infra/device-simulator/run';
import { postAnswer, readProfile } from '../../infra/device-simulator/device';
import { readDeviceKey } from '../../shared/db/repositories/device-key-repository';
import { listTenantCaptures } from '../../shared/db/repositories/udid-capture-repository';
import { changeTenantSettings } from '../../shared/domain/tenants/tenant-service';
import { signingKeys } from '../../shared/domain/udid-capture/capture-keys';
import { issueChallenge } from '../../shared/domain/udid-capture/challenge';
import { languages } from '../../shared/i18n/languages';

jest.setTimeout(120_000);

const STOREFRONT = 'https://shop.example.com/udid';

let api: TestApi;
let ca: DeviceCa;
let owner: Owner;
let other: Owner;
beforeAll(async () => {
  api = await startTestApi();
  ca = await trustedDeviceCa();
  owner = await makeOwner();
  other = await makeOwner();
  await changeTenantSettings('default', { settings: { returnTargets: [STOREFRONT] } });
}, 180_000);
afterAll(() => api.close());

const installPage = (o: Owner) => `${api.url}/api/rjy/${o.source.source_id}/install`;
const sourceProfile = (o: Owner, query = '') => `${api.url}/api/rjy/${o.source.source_id}/udid.mobileconfig${query}`;

async function captureTo(profileUrl: string, udid: string): Promise<URL> {
  const run = await runDevice(ca, profileUrl, { udid });
  expect(run.result.status).toBe(301);
  return new URL(run.result.location!);
}

/** A capture for a storefront: the redirect's `udid` and `ticket`, as its URL would leak. */
async function storefrontTicket(o: Owner, udid: string): Promise<URL> {
  const location = await captureTo(sourceProfile(o, `?return=${encodeURIComponent(`${STOREFRONT}?order=7`)}`), udid);
  expect(`${location.origin}${location.pathname}`).toBe(STOREFRONT);
  expect(location.searchParams.get('ticket')).toMatch(/^eyJ/);
  expect(location.searchParams.get('st')).toBeNull();
  return location;
}

const noDevice = (text: string, udid: string) => {
  expect(text).not.toContain('dk=');
  expect(text).not.toContain(udid);
  expect(text).not.toContain('id="feed-url"');
};

test('the capture’s redirect to its install page carries only st; without st (a stranger’s copy) the page gives nothing', async () => {
  const udid = newUdid();
  const location = await captureTo(sourceProfile(owner), udid);
  expect(`${location.origin}${location.pathname}`).toBe(installPage(owner));
  expect([...location.searchParams.keys()]).toEqual(['st']);
  expect(location.href).not.toContain(udid);
  // A stranger drops st (or adds the UDID by hand): the bare page, nothing of the device, no key minted.
  for (const url of [installPage(owner), `${installPage(owner)}?udid=${udid}`]) {
    const page = await call(url, { from: '127.0.0.9' });
    expect(page.status).toBe(200);
    noDevice(page.text, udid);
  }
  expect((await readDeviceKey(owner.source.source_id, udid.toUpperCase())).key).toBeUndefined();
});

test('a capture ticket alone shows no UDID and no device key on the install page, on its own source, another reseller’s, or another tenant', async () => {
  const udid = newUdid();
  const leaked = await storefrontTicket(owner, udid);
  const query = leaked.search;
  const other_tenant = await makeTenant();
  for (const [url, host] of [
    [`${installPage(owner)}${query}`, undefined],
    [`${installPage(owner)}?ticket=${leaked.searchParams.get('ticket')!}`, undefined],
    [`${installPage(other)}${query}`, undefined],
    [`${api.url}/api/customer${query}`, undefined],
    [`${api.url}/api/customer${query}`, other_tenant.host],
  ] as const) {
    const page = await call(url, { from: '127.0.0.9', ...(host ? { host } : {}) });
    expect([url, page.status]).toEqual([url, 200]);
    noDevice(page.text, udid);
  }
  expect((await readDeviceKey(owner.source.source_id, udid.toUpperCase())).key).toBeUndefined();
  expect((await readDeviceKey(other.source.source_id, udid.toUpperCase())).key).toBeUndefined();
});

test('a foreign return is refused at both profile links, in every language, and nothing is issued', async () => {
  const evil = encodeURIComponent('https://evil.example/collect');
  const near = encodeURIComponent('https://shop.example.com/udidx');
  const messages = new Set<string>();
  for (const path of [
    `/api/rjy/${owner.source.source_id}/udid.mobileconfig?return=${evil}`,
    `/api/udid/profile?return=${evil}`,
    `/api/udid/profile?return=${near}&user=${owner.user.userId}`,
    `/api/udid/profile?return=${encodeURIComponent('https://shop.example.com:8443/udid')}`,
  ]) {
    for (const lang of languages) {
      const res = await api.request('GET', path, { headers: { 'X-Lang': lang } });
      expect([path, lang, res.status, res.headers.get('x-error'), res.headers.get('content-language')]).toEqual([path, lang, 400, 'return_not_allowed', lang]);
      expect(res.headers.get('content-type')).toContain('text/html');
      messages.add(String(res.body.raw));
    }
  }
  // One message per language (each path's page is the same in a language).
  expect(messages.size).toBe(languages.length);
  // The registered target, below its path, and the tenant's own pages are fine.
  for (const path of [`/api/udid/profile?return=${encodeURIComponent(`${STOREFRONT}/done?x=1`)}`, `/api/udid/profile?return=${encodeURIComponent(`${api.url}/api/customer`)}`]) {
    expect([path, (await api.request('GET', path)).status]).toEqual([path, 200]);
  }
});

test('the callback refuses a challenge whose return is not (or no longer) allowed, and stores nothing', async () => {
  const now = Math.floor(Date.now() / 1000);
  const keys = await signingKeys('default', now);
  // A challenge carrying a foreign return (as one made before this rule would).
  const forged = await issueChallenge(keys.challengeSecret, { tenantId: 'default', sourceId: owner.source.source_id, ownerId: owner.user.userId, returnUrl: 'https://evil.example/collect' }, now);
  // A registered target, unregistered after the profile was made.
  await changeTenantSettings('default', { settings: { returnTargets: [STOREFRONT, 'https://gone.example.com/back'] } });
  const profile = await api.request('GET', `/api/udid/profile?return=${encodeURIComponent('https://gone.example.com/back')}`);
  expect(profile.status).toBe(200);
  const unregistered = readProfile(Buffer.from(String(profile.body.raw), 'utf8')).challenge;
  await changeTenantSettings('default', { settings: { returnTargets: [STOREFRONT] } });
  const before = (await listTenantCaptures('default')).length;
  for (const challenge of [forged.token, unregistered]) {
    const result = await postAnswer(`${api.url}/api/udid/callback`, buildAnswer(ca, { udid: newUdid() }, challenge));
    expect([result.status, result.error, result.location]).toEqual([400, 'return_not_allowed', null]);
  }
  expect((await listTenantCaptures('default')).length).toBe(before);
});

test('revoking the device URL: the session from before it, and the ticket, mint nothing; a new capture by the device may', async () => {
  const udid = newUdid();
  const firstCapture = await captureTo(sourceProfile(owner), udid);
  const leaked = await storefrontTicket(owner, udid);
  const { cookie } = await enter(firstCapture.href);
  const before = await call(installPage(owner), { cookie });
  const firstUrl = /id="feed-url">([^<]+)</.exec(before.text)![1]!.replace(/&#38;/g, '&');
  expect(firstUrl).toMatch(/\?dk=[A-Za-z0-9_-]{32}$/);
  // A download link the device's feed handed out under that key: it works now.
  const app = await makeDraft(owner.source.source_id, { name: 'Paid', downloadUrl: 'https://dl.example.com/paid.ipa' });
  expect((await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${app.id}/publish`, { headers: owner.bearer })).body.code).toBe(1);
  const feed = await api.request('GET', new URL(firstUrl).pathname + new URL(firstUrl).search);
  const link = new URL((feed.body as unknown as { apps: { downloadURL: string }[] }).apps[0]!.downloadURL);
  expect((await api.request('GET', link.pathname + link.search)).status).toBe(302);

  const revoked = await api.request('DELETE', `/api/appstore/manage/sources/${owner.source.source_id}/device-url?udid=${udid}`, { headers: owner.bearer });
  expect(revoked.body.data).toMatchObject({ revoked: true });
  // The session from before the revocation: the UDID and a notice, no feed URL, and no key minted.
  const after = await call(installPage(owner), { cookie, lang: 'es' });
  expect(after.text).toContain(udid);
  expect(after.text).not.toContain('dk=');
  expect(after.text).toContain('El propietario de la fuente revocó la URL');
  // The leaked ticket, anywhere: nothing.
  noDevice((await call(`${installPage(owner)}${leaked.search}`, { from: '127.0.0.9' })).text, udid);
  expect((await readDeviceKey(owner.source.source_id, udid.toUpperCase())).key).toBeUndefined();
  // The link handed out under the revoked key no longer downloads (it would have for its hour).
  const dead = await api.request('GET', link.pathname + link.search, { headers: { 'X-Lang': 'en' } });
  expect([dead.status, dead.body.data?.error, dead.body.msg]).toEqual([403, 'device_url_revoked', "The source's owner revoked this device's feed URL; use your new feed URL"]);

  // The device proves itself again: a new capture, a new session, a new key (the old one stays dead). Times are
  // whole seconds and a capture in the revocation's own second counts as before it (the safe side), so the
  // device captures in the next second, as any person's two taps would.
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 50));
  const { cookie: fresh } = await enter((await captureTo(sourceProfile(owner), udid)).href);
  const again = await call(installPage(owner), { cookie: fresh });
  const newUrl = /id="feed-url">([^<]+)</.exec(again.text)![1]!.replace(/&#38;/g, '&');
  expect(newUrl).toMatch(/\?dk=[A-Za-z0-9_-]{32}$/);
  expect(newUrl).not.toBe(firstUrl);
  // Even now that a key exists, the session from before the revocation is not given it, and the old link stays dead.
  expect((await call(installPage(owner), { cookie })).text).not.toContain('dk=');
  expect((await api.request('GET', link.pathname + link.search)).body.data?.error).toBe('device_url_revoked');
});

test('a session shows the feed URL only on its own source’s page; on another reseller’s source it mints no key', async () => {
  const udid = newUdid();
  const { cookie } = await enter((await captureTo(sourceProfile(owner), udid)).href);
  const elsewhere = await call(installPage(other), { cookie });
  expect(elsewhere.text).toContain(udid);
  expect(elsewhere.text).not.toContain('dk=');
  expect(elsewhere.text).toContain(`href="${sourceProfile(other)}"`);
  expect((await readDeviceKey(other.source.source_id, udid.toUpperCase())).key).toBeUndefined();
});
