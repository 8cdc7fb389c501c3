import { compactDecrypt } from 'jose';
import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, makeTenant, newUdid, type Owner } from '../support/fixtures';
import { defaultIdentifier } from '../../shared/domain/sources/feed';
import { feedProblems, NO_PROBLEMS, downloadUrls } from '../support/feed-validators';
import { importDevice } from '../../shared/domain/devices/device-import';
import { createUser } from '../../shared/domain/users/user-service';
import { updateOwnedSource } from '../../shared/db/repositories/source-repository';
import { updateTenantSettings } from '../../shared/db/repositories/tenant-repository';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { ipBucketKey } from '../../shared/http/middlewares/rate-limit';
import { setClock } from '../../shared/clock';
import { atMinuteStart } from '../support/clock';
import { commands } from '../../infra/admin/commands';
import type { AppMetadata } from '../../shared/records/app';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const NOW = 1_700_000_000;

interface FeedApp {
  name: string;
  bundleIdentifier: string;
  downloadURL: string;
  version: string;
  lock: string;
  versions: { version: string; date: string; downloadURL: string; size: number }[];
}
interface Feed {
  name: string;
  identifier: string;
  sourceURL: string;
  unlockURL?: string;
  apps: FeedApp[];
}

const feedPath = (sourceId: string) => `/api/rjy/${sourceId}/appstore`;

async function publish(owner: Owner, draft: Partial<AppMetadata> & { downloadUrl?: string } = {}, host?: string) {
  const app = await makeDraft(owner.source.source_id, draft);
  const headers = { ...owner.bearer, ...(host ? { Host: host } : {}) };
  const res = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${app.id}/publish`, { headers });
  expect(res.body.code).toBe(1);
  return app;
}

async function setEncrypt(owner: Owner, value: 0 | 1) {
  await updateOwnedSource({ tenantId: owner.user.tenantId, userId: owner.user.userId }, owner.source.source_id, { encrypt_enabled: value }, NOW);
}

async function readFeed(sourceId: string, query = '', headers: Record<string, string> = {}) {
  const res = await api.request('GET', `${feedPath(sourceId)}${query}`, { headers });
  expect(res.status).toBe(200);
  return res.body as unknown as Feed;
}

/** Follows a gate link through the test API (same host), without following the redirect. */
async function download(link: string, headers: Record<string, string> = {}) {
  const url = new URL(link);
  return api.request('GET', `${url.pathname}${url.search}`, { headers });
}

const disable = (owner: Owner, kid: string) => api.request('GET', `/api/device/status?token=${owner.token}&kid=${kid}&action=disable`);

describe('the feed document', () => {
  test('an empty source is a valid document for every client (Feather aside: it just has no apps)', async () => {
    const owner = await makeOwner();
    const feed = await readFeed(owner.source.source_id);
    expect(feedProblems(feed, { emptySource: true })).toEqual(NO_PROBLEMS);
    expect(feed).toEqual({ name: 'Fixture source', identifier: `local.${owner.source.source_id}`, sourceURL: `${api.url}${feedPath(owner.source.source_id)}`, apps: [] });
  });

  test('releases of one bundle identifier are one app, versions newest first, flat fields of the newest', async () => {
    // on a tenant's own domain, which its links then carry (another host would not be reflected)
    const shop = await makeTenant();
    const owner = await makeOwner({ tenantId: shop.tenantId });
    await setEncrypt(owner, 0);
    await updateOwnedSource({ tenantId: shop.tenantId, userId: owner.user.userId }, owner.source.source_id, { message: 'Hello', source_icon: 'https://cdn.example.com/s.png', pay_url: 'https://pay.example.com' }, NOW);
    const restore = setClock(() => NOW * 1000);
    try {
      await publish(owner, { name: 'Player', version: '1.0', downloadUrl: 'https://dl.example.com/p1.ipa', size: 100 }, shop.host);
    } finally {
      restore();
    }
    await publish(owner, { name: 'Player', version: '1.1', downloadUrl: 'https://dl.example.com/p11.ipa', size: 110, version_description: 'Faster', tint_color: 'FF0000' }, shop.host);
    await publish(owner, { name: 'Reader', version: '3.0', downloadUrl: 'https://dl.example.com/r3.ipa', type: 1 }, shop.host);
    const feed = await readFeed(owner.source.source_id, '', { Host: shop.host });
    expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
    expect(feed).toMatchObject({
      identifier: defaultIdentifier(shop.host, owner.source.source_id),
      sourceURL: `http://${shop.host}${feedPath(owner.source.source_id)}`,
      message: 'Hello',
      description: 'Hello',
      iconURL: 'https://cdn.example.com/s.png',
      sourceicon: 'https://cdn.example.com/s.png',
      payURL: 'https://pay.example.com',
    });
    expect(feed).not.toHaveProperty('unlockURL');
    expect(feed.apps.map((a) => a.bundleIdentifier)).toEqual(['com.example.reader', 'com.example.player']);
    const player = feed.apps[1]!;
    expect(player).toMatchObject({ version: '1.1', versionDescription: 'Faster', downloadURL: 'https://dl.example.com/p11.ipa', size: 110, tintColor: 'FF0000', lock: '0', type: 0 });
    expect(player.versions.map((v) => [v.version, v.downloadURL, v.size])).toEqual([
      ['1.1', 'https://dl.example.com/p11.ipa', 110],
      ['1.0', 'https://dl.example.com/p1.ipa', 100],
    ]);
    expect(player.versions[1]!.date).toBe('2023-11-14T22:13:20Z');
    expect(feed.apps[0]).toMatchObject({ type: 1 });
  });

  test('the feed answers only on its own tenant host; an unknown source is a 404 envelope', async () => {
    const tenant = await makeTenant();
    const owner = await makeOwner({ tenantId: tenant.tenantId });
    expect((await api.request('GET', feedPath(owner.source.source_id), { headers: { Host: tenant.host } })).status).toBe(200);
    const elsewhere = await api.request('GET', feedPath(owner.source.source_id), { headers: { 'X-Lang': 'en' } });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toMatchObject({ code: 40001, data: { error: 'source_not_found' } });
    const unknown = await api.request('GET', feedPath('snope'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 40001 });
  });

  test('ETag and 304 for plain JSON; a read without a UDID is public, a device read follows encrypt_enabled', async () => {
    const owner = await makeOwner();
    await publish(owner);
    const encrypted = await api.request('GET', feedPath(owner.source.source_id));
    expect(encrypted.headers.get('cache-control')).toBe('public, max-age=60');
    expect((await api.request('GET', `${feedPath(owner.source.source_id)}?udid=${newUdid()}`)).headers.get('cache-control')).toBe('no-store');
    await setEncrypt(owner, 0);
    expect((await api.request('GET', `${feedPath(owner.source.source_id)}?udid=${newUdid()}`)).headers.get('cache-control')).toBe('private, max-age=60');
    const first = await api.request('GET', feedPath(owner.source.source_id));
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await api.request('GET', feedPath(owner.source.source_id), { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toEqual({ raw: '' });
    const changed = await api.request('GET', feedPath(owner.source.source_id), { headers: { 'If-None-Match': '"other"' } });
    expect(changed.status).toBe(200);
  });

  test('600 reads per minute per IP per source, then 429 with Retry-After', async () => {
    const owner = await makeOwner();
    const other = await makeOwner();
    await atMinuteStart(async (start) => {
      const key = ipBucketKey({ function: 'source-feed' }, { limit: 600, window: 'minute', perPathParam: 'source_id' }, '127.0.0.1', { source_id: owner.source.source_id }, start);
      // This IP's counter for this source and minute, filled to the limit (as 600 earlier reads would).
      await documentClient().send(new PutCommand({ TableName: tableName('rateLimits'), Item: { bucket: key, count: 600, expires_at: NOW * 2 } }));
      const limited = await api.request('GET', feedPath(owner.source.source_id), { headers: { 'X-Lang': 'en' } });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 429, data: { error: 'rate_limited', limit: 600 } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await api.request('GET', feedPath(other.source.source_id))).status).toBe(200);
    });
  });
});

describe('encrypt_enabled and the download gate', () => {
  test('without a UDID every link is a gate link that refuses udid_required; the catalogue stays readable', async () => {
    const owner = await makeOwner();
    await publish(owner, { name: 'Game', downloadUrl: 'https://dl.example.com/game.ipa' });
    const feed = await readFeed(owner.source.source_id);
    expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
    expect(JSON.stringify(feed)).not.toContain('dl.example.com');
    const res = await download(feed.apps[0]!.downloadURL, { 'X-Lang': 'en' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 403, msg: 'Add this source from your device’s own link (the dk link your seller gave you) to download', data: { error: 'udid_required' } });
  });

  test('links bound to a UDID redirect to the right build; tampered, rebound or expired links are refused', async () => {
    const owner = await makeOwner();
    await publish(owner, { name: 'Game', version: '1.0', downloadUrl: 'https://dl.example.com/game-1.0.ipa' });
    await publish(owner, { name: 'Game', version: '2.0', downloadUrl: 'https://dl.example.com/game-2.0.ipa' });
    const udid = newUdid();
    const feed = await readFeed(owner.source.source_id, `?udid=${udid}`);
    expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
    const [newest, older] = feed.apps[0]!.versions;
    for (const [link, target] of [[newest!.downloadURL, 'https://dl.example.com/game-2.0.ipa'], [older!.downloadURL, 'https://dl.example.com/game-1.0.ipa']] as const) {
      const res = await download(link);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(target);
    }
    const url = new URL(newest!.downloadURL);
    const variants: [string, (p: URLSearchParams) => void][] = [
      ['sig altered', (p) => p.set('sig', `${p.get('sig')!.slice(0, -2)}AA`)],
      ['device altered', (p) => p.set('d', `${p.get('d')!.slice(0, -2)}AA`)],
      ['device removed', (p) => p.delete('d')],
      ['exp extended', (p) => p.set('exp', String(Number(p.get('exp')) + 3600))],
      ['sig repeated', (p) => p.append('sig', p.get('sig')!)],
    ];
    for (const [, change] of variants) {
      const params = new URLSearchParams(url.search);
      change(params);
      const res = await api.request('GET', `${url.pathname}?${params.toString()}`, { headers: { 'X-Lang': 'ru' } });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 403, data: { error: 'bad_signature' } });
    }
    const restore = setClock(() => Date.now() + 2 * 3600 * 1000);
    try {
      const expired = await download(newest!.downloadURL, { 'X-Lang': 'en' });
      expect(expired.status).toBe(403);
      expect(expired.body).toMatchObject({ data: { error: 'link_expired' }, msg: 'This download link has expired; refresh the source and try again' });
    } finally {
      restore();
    }
    // another app id under the same signature, an unknown app, another tenant's host
    expect((await api.request('GET', url.pathname.replace(/apps\/\d+/, 'apps/999') + url.search)).body).toMatchObject({ data: { error: 'bad_signature' } });
    const otherSite = await makeTenant();
    const foreign = await api.request('GET', `${url.pathname}${url.search}`, { headers: { Host: otherSite.host } });
    expect(foreign.status).toBe(404);
  });

  test('a link to an app taken out of the feed is 404 (40004); an unknown source or a malformed path 404 too', async () => {
    const owner = await makeOwner();
    const app = await publish(owner, { name: 'Gone' });
    const link = new URL((await readFeed(owner.source.source_id, `?udid=${newUdid()}`)).apps[0]!.downloadURL);
    const off = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${app.id}/unpublish`, { headers: owner.bearer });
    expect(off.body.code).toBe(1);
    expect((await readFeed(owner.source.source_id)).apps).toEqual([]);
    const gone = await api.request('GET', `${link.pathname}${link.search}`, { headers: { 'X-Lang': 'en' } });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 40004, data: { error: 'app_not_found' } });
    expect((await api.request('GET', `/api/rjy/snope/apps/1/download${link.search}`)).body).toMatchObject({ code: 40001 });
    expect((await api.request('GET', `/api/rjy/${owner.source.source_id}/apps/1.5/download${link.search}`)).status).toBe(404);
  });

  test('links live for the tenant link TTL, rounded so a window serves identical documents', async () => {
    const tenant = await makeTenant();
    await updateTenantSettings(tenant.tenantId, { settings: { linkTtlSeconds: 600 } });
    const owner = await makeOwner({ tenantId: tenant.tenantId });
    await publish(owner, {}, tenant.host);
    const read = async () => (await api.request('GET', `${feedPath(owner.source.source_id)}?udid=${newUdid()}`, { headers: { Host: tenant.host } })).body as unknown as Feed;
    const exp = Number(new URL((await read()).apps[0]!.downloadURL).searchParams.get('exp'));
    const now = Math.floor(Date.now() / 1000);
    expect(exp - now).toBeGreaterThan(300 - 5);
    expect(exp - now).toBeLessThanOrEqual(600);
    expect(exp % 300).toBe(0);
  });

  test('with encrypt_enabled 0 unlocked apps carry origin URLs; locked ones gate links refusing locked', async () => {
    const owner = await makeOwner();
    await setEncrypt(owner, 0);
    await publish(owner, { name: 'Open', downloadUrl: 'https://dl.example.com/open.ipa' });
    await publish(owner, { name: 'Closed', downloadUrl: 'https://dl.example.com/closed.ipa', lock: 1 });
    const udid = newUdid();
    for (const query of ['', `?udid=${udid}`]) {
      const feed = await readFeed(owner.source.source_id, query);
      expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
      expect(feed.unlockURL).toBe(feed.sourceURL);
      const open = feed.apps.find((a) => a.name === 'Open')!;
      const closed = feed.apps.find((a) => a.name === 'Closed')!;
      expect(open.downloadURL).toBe('https://dl.example.com/open.ipa');
      expect(closed.lock).toBe('1');
      expect(closed.downloadURL).toContain('/download?');
      const res = await download(closed.downloadURL);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ data: { error: query ? 'locked' : 'udid_required' } });
    }
  });

  test('Accept: application/jose answers a JWE that decrypts with the CLI key; plain JSON otherwise', async () => {
    const owner = await makeOwner();
    await publish(owner);
    const udid = newUdid();
    const res = await api.request('GET', `${feedPath(owner.source.source_id)}?udid=${udid}`, { headers: { Accept: 'application/jose' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/jose');
    expect(res.headers.get('etag')).toBeNull();
    const jwe = (res.body as { raw: string }).raw;
    expect(jwe.split('.')).toHaveLength(5);
    const key = await commands['source key']!({ source: owner.source.source_id });
    expect(key).toMatchObject({ source_id: owner.source.source_id, alg: 'dir', enc: 'A256GCM' });
    const { plaintext, protectedHeader } = await compactDecrypt(jwe, Buffer.from(String(key.key), 'base64url'));
    expect(protectedHeader).toMatchObject({ alg: 'dir', enc: 'A256GCM' });
    const feed = JSON.parse(new TextDecoder().decode(plaintext)) as Feed;
    expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
    // bound to the device without naming it: the link seals the UDID
    expect(new URL(feed.apps[0]!.downloadURL).searchParams.get('d')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(feed.apps[0]!.downloadURL.toUpperCase()).not.toContain(udid.toUpperCase());
    // with encryption off the header is ignored
    await setEncrypt(owner, 0);
    const plain = await api.request('GET', feedPath(owner.source.source_id), { headers: { Accept: 'application/jose' } });
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('disabled devices', () => {
  test("a disabled device gets only links refusing device_disabled; enabled, unknown and other users' devices download", async () => {
    const owner = await makeOwner();
    await publish(owner, { name: 'Game' });
    const device = await importDevice({ userId: owner.user.userId, udid: newUdid() }, NOW);
    expect((await download((await readFeed(owner.source.source_id, `?udid=${device.udid}`)).apps[0]!.downloadURL)).status).toBe(302);
    expect((await disable(owner, device.kid)).body.code).toBe(1);
    // a kid binds nothing (issue 33): the UDID does, claimed or proven
    for (const query of [`?udid=${device.udid}`, `?udid=${device.udid.toUpperCase()}`, `?udid=${device.udid}&kid=bogus`, `?udid=${device.udid}&kid=${device.kid}`]) {
      const feed = await readFeed(owner.source.source_id, query);
      expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
      for (const link of downloadUrls(feed)) {
        const res = await download(link, { 'X-Lang': 'en' });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ data: { error: 'device_disabled' }, msg: 'The source owner disabled this device; it cannot download' });
      }
    }
    // a repeated or malformed udid counts as absent: the links refuse udid_required, never download
    for (const query of [`?udid=${device.udid}&udid=${device.udid}`, `?udid=${device.udid}x`, `?udid=${'f'.repeat(200)}`]) {
      const feed = await readFeed(owner.source.source_id, query);
      expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
      expect((await download(feed.apps[0]!.downloadURL)).body).toMatchObject({ data: { error: 'udid_required' } });
    }
    const stranger = await createUser({ tenantId: 'default' }, NOW);
    const strangerDevice = await importDevice({ userId: stranger.user.userId, udid: newUdid() }, NOW);
    expect((await download((await readFeed(owner.source.source_id, `?udid=${strangerDevice.udid}`)).apps[0]!.downloadURL)).status).toBe(302);
    await api.request('GET', `/api/device/status?token=${owner.token}&kid=${device.kid}&action=enable`);
    expect((await download((await readFeed(owner.source.source_id, `?udid=${device.udid}`)).apps[0]!.downloadURL)).status).toBe(302);
  });

  test('any disabled certificate of a UDID withholds, whichever kid comes along; with encrypt_enabled 0 too', async () => {
    const owner = await makeOwner();
    await setEncrypt(owner, 0);
    await publish(owner, { name: 'Game', downloadUrl: 'https://dl.example.com/g.ipa' });
    const udid = newUdid();
    const older = await importDevice({ userId: owner.user.userId, udid }, NOW);
    const newer = await importDevice({ userId: owner.user.userId, udid }, NOW + 1);
    await disable(owner, older.kid);
    for (const query of [`?udid=${udid}`, `?udid=${udid}&kid=${newer.kid}`]) {
      const feed = await readFeed(owner.source.source_id, query);
      expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
      expect(JSON.stringify(feed)).not.toContain('dl.example.com');
      expect((await download(feed.apps[0]!.downloadURL)).body).toMatchObject({ data: { error: 'device_disabled' } });
    }
    // without encryption a reader that hides its UDID gets origin URLs: restrictions need the gate
    expect((await readFeed(owner.source.source_id)).apps[0]!.downloadURL).toBe('https://dl.example.com/g.ipa');
  });
});

describe('the validators themselves', () => {
  test('they catch what each client refuses', async () => {
    const { altStoreProblems, featherProblems, esignProblems } = await import('../support/feed-validators');
    const version = { version: '1', date: '2026-11-23T08:00:00Z', downloadURL: 'https://x.example/a.ipa', size: 1, localizedDescription: '' };
    const app = { name: 'A', bundleIdentifier: 'com.a', developerName: 'D', localizedDescription: 'L', iconURL: 'https://x.example/i.png', versions: [version] };
    const esignApp = { ...app, version: '1', versionDate: version.date, versionDescription: '', downloadURL: version.downloadURL, size: 1, lock: '0', type: 0 };
    const doc = { name: 'S', identifier: 'com.s', sourceURL: 'https://x.example/s', apps: [esignApp] };
    expect([altStoreProblems(doc), featherProblems(doc), esignProblems(doc)]).toEqual([[], [], []]);
    const withVersion = (v: object) => ({ ...doc, apps: [{ ...esignApp, versions: [{ ...version, ...v }] }] });
    expect(altStoreProblems(withVersion({ date: '2026-11-23T08:00:00.123Z' }))).toContainEqual(expect.stringContaining('date'));
    expect(altStoreProblems(withVersion({ size: 1.5 }))).toContainEqual(expect.stringContaining('size'));
    expect(altStoreProblems(withVersion({ downloadURL: '' }))).toContainEqual(expect.stringContaining('downloadURL'));
    expect(altStoreProblems({ ...doc, apps: [esignApp, esignApp] })).toContainEqual(expect.stringContaining('repeats'));
    expect(altStoreProblems({ ...doc, iconURL: '' })).toContainEqual(expect.stringContaining('iconURL'));
    expect(altStoreProblems({ ...doc, apps: [{ ...esignApp, tintColor: '#ffffff' }] })).toContainEqual(expect.stringContaining('tintColor'));
    expect(featherProblems({ ...doc, apps: [] })).toEqual(['apps is empty']);
    expect(featherProblems({ ...doc, apps: [{ ...esignApp, iconURL: 'icon.png' }] })).toHaveLength(1);
    expect(esignProblems({ ...doc, sourceURL: '/api/rjy/s/appstore' })).toContainEqual('sourceURL is not absolute');
    expect(esignProblems({ ...doc, apps: [{ ...esignApp, lock: 0 }] })).toContainEqual(expect.stringContaining('lock'));
  });
});
