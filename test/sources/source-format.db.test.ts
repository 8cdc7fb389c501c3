/**
 * The full source format: a source with an icon, a header, a description, news, a featured app and an app
 * with screenshots, permissions and an iOS range loads in the AltStore/SideStore, Feather and ESign
 * validators — plain and as a JWE, with and without a UDID — and every new field refuses bad values.
 */
import { compactDecrypt } from 'jose';
import { startTestApi, type TestApi } from '../support/api';
import { makeOwner, newUdid, type Owner } from '../support/fixtures';
import { feedProblems, NO_PROBLEMS } from '../support/feed-validators';
import { commands } from '../../infra/admin/commands';
import { updateTenantSettings } from '../../shared/db/repositories/tenant-repository';
import { getApp } from '../../shared/db/repositories/app-repository';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const manage = (sourceId: string) => `/api/appstore/manage/sources/${sourceId}`;
const feedPath = (sourceId: string) => `/api/rjy/${sourceId}/appstore`;
type Json = Record<string, unknown>;

const player = {
  name: 'Player',
  version: '2.0',
  download_url: 'https://dl.example.com/player-2.0.ipa',
  bundle_identifier: 'com.example.player',
  developer_name: 'Example Studio',
  description: 'Plays things.',
  icon_url: 'https://dl.example.com/player.png',
  size: 2048,
  min_os_version: '15.0',
  max_os_version: '18.1',
  screenshots: {
    iphone: ['https://dl.example.com/shot1.png', { image_url: 'https://dl.example.com/shot2.png', width: 1170, height: 2532 }],
    ipad: [{ image_url: 'https://dl.example.com/pad1.png', width: 2048, height: 2732 }],
  },
  app_permissions: {
    entitlements: ['com.apple.developer.networking.wifi-info', 'keychain-access-groups'],
    privacy: { NSCameraUsageDescription: 'Scans codes', NSPhotoLibraryUsageDescription: 'Saves covers' },
  },
};

async function createAndPublish(owner: Owner, app: Json) {
  const created = await api.request('POST', `${manage(owner.source.source_id)}/apps`, { headers: owner.bearer, json: app });
  expect(created.body.code).toBe(1);
  const id = (created.body.data as { id: number }).id;
  expect((await api.request('POST', `${manage(owner.source.source_id)}/apps/${id}/publish`, { headers: owner.bearer })).body.code).toBe(1);
  return id;
}

/** The "Done means" source: icon, header, two news items, a featured app, an app with screenshots and permissions. */
async function fullSource(): Promise<Owner> {
  const owner = await makeOwner();
  const settings = await api.request('PATCH', manage(owner.source.source_id), {
    headers: owner.bearer,
    json: {
      name: 'Full Source',
      message: 'Welcome to the shop',
      source_icon: 'https://cdn.example.com/icon.png',
      subtitle: 'Signed apps, daily',
      description: 'Everything we sign.\nUpdated daily.',
      header_url: 'https://cdn.example.com/header.png',
      website: 'https://shop.example.com/',
      tint_color: '#FF8800',
      featured_apps: ['com.example.player'],
    },
  });
  expect(settings.body.code).toBe(1);
  await createAndPublish(owner, player);
  await createAndPublish(owner, { ...player, name: 'Reader', bundle_identifier: 'com.example.reader', screenshots: {}, app_permissions: {}, max_os_version: '' });
  const news = [
    { title: 'Player 2.0', caption: 'Now with covers.', date: '2026-11-20T08:00:00Z', image_url: 'https://cdn.example.com/n1.png', url: 'https://shop.example.com/player', app_id: 'com.example.player', tint_color: '00AAFF', notify: 1 },
    { title: 'Maintenance', caption: 'Back at 10:00.', date: 1_795_000_000 },
  ];
  for (const item of news) expect((await api.request('POST', `${manage(owner.source.source_id)}/news`, { headers: owner.bearer, json: item })).body.code).toBe(1);
  return owner;
}

async function decrypt(owner: Owner, jwe: string): Promise<Json> {
  const key = await commands['source key']!({ source: owner.source.source_id });
  const { plaintext } = await compactDecrypt(jwe, Buffer.from(String(key.key), 'base64url'));
  return JSON.parse(new TextDecoder().decode(plaintext)) as Json;
}

describe('the full source format in the feed', () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await fullSource();
  });

  test('plain, without a UDID: every client loads it, with every new key in the shape the clients decode', async () => {
    const res = await api.request('GET', feedPath(owner.source.source_id));
    expect(res.status).toBe(200);
    const feed = res.body as Json;
    expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
    expect(feed).toMatchObject({
      name: 'Full Source',
      iconURL: 'https://cdn.example.com/icon.png',
      sourceicon: 'https://cdn.example.com/icon.png',
      subtitle: 'Signed apps, daily',
      description: 'Everything we sign.\nUpdated daily.',
      message: 'Welcome to the shop',
      headerURL: 'https://cdn.example.com/header.png',
      website: 'https://shop.example.com/',
      tintColor: 'FF8800',
      featuredApps: ['com.example.player'],
    });
    const news = feed.news as Json[];
    // The announcement first, then the items newest first.
    expect(news.map((n) => n.title)).toEqual(['Full Source', 'Player 2.0', 'Maintenance']);
    expect(news[0]).toMatchObject({ caption: 'Welcome to the shop', identifier: expect.stringMatching(/^announcement-[0-9a-f]{12}$/) });
    expect(news[1]).toEqual({
      identifier: expect.stringMatching(/^n[0-9a-z]{10}$/),
      date: '2026-11-20T08:00:00Z',
      title: 'Player 2.0',
      caption: 'Now with covers.',
      tintColor: '00AAFF',
      imageURL: 'https://cdn.example.com/n1.png',
      url: 'https://shop.example.com/player',
      appID: 'com.example.player',
      notify: true,
    });
    expect(news[2]).toEqual({ identifier: expect.any(String), date: '2026-11-18T11:06:40Z', title: 'Maintenance', caption: 'Back at 10:00.' });
    const apps = feed.apps as Json[];
    const app = apps.find((a) => a.bundleIdentifier === 'com.example.player')!;
    expect(app.screenshots).toEqual({
      iphone: ['https://dl.example.com/shot1.png', { imageURL: 'https://dl.example.com/shot2.png', width: 1170, height: 2532 }],
      ipad: [{ imageURL: 'https://dl.example.com/pad1.png', width: 2048, height: 2732 }],
    });
    expect(app.screenshotURLs).toEqual(['https://dl.example.com/shot1.png', 'https://dl.example.com/shot2.png']);
    expect(app.appPermissions).toEqual(player.app_permissions);
    expect((app.versions as Json[])[0]).toMatchObject({ minOSVersion: '15.0', maxOSVersion: '18.1' });
    // An app without screenshots, permissions or a newest iOS carries none of those keys (never empty ones).
    const reader = apps.find((a) => a.bundleIdentifier === 'com.example.reader')!;
    expect(reader).not.toHaveProperty('screenshots');
    expect(reader).not.toHaveProperty('screenshotURLs');
    expect(reader).not.toHaveProperty('appPermissions');
    expect((reader.versions as Json[])[0]).not.toHaveProperty('maxOSVersion');
    // The one answer shared caches may hold.
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  test('plain with a UDID, and as a JWE with and without one: the same keys, every client loads it, never shared', async () => {
    const udid = newUdid();
    const withUdid = await api.request('GET', `${feedPath(owner.source.source_id)}?udid=${udid}`);
    expect(feedProblems(withUdid.body)).toEqual(NO_PROBLEMS);
    expect(withUdid.body).toMatchObject({ headerURL: 'https://cdn.example.com/header.png', featuredApps: ['com.example.player'] });
    expect(withUdid.headers.get('cache-control')).toBe('no-store');
    for (const query of [`?udid=${udid}`, '']) {
      const res = await api.request('GET', `${feedPath(owner.source.source_id)}${query}`, { headers: { Accept: 'application/jose' } });
      expect(res.headers.get('content-type')).toBe('application/jose');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const feed = await decrypt(owner, (res.body as { raw: string }).raw);
      expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
      expect((feed.news as Json[]).length).toBe(3);
      expect((feed.apps as Json[]).find((a) => a.bundleIdentifier === 'com.example.player')).toHaveProperty('appPermissions');
    }
  });

  test('with encryption off a device read is private; the tenant setting sets the shared max-age', async () => {
    const other = await makeOwner();
    await api.request('PATCH', manage(other.source.source_id), { headers: other.bearer, json: { encrypt_enabled: 0 } });
    await createAndPublish(other, player);
    const device = await api.request('GET', `${feedPath(other.source.source_id)}?udid=${newUdid()}`);
    expect(device.headers.get('cache-control')).toBe('private, max-age=60');
    expect(feedProblems(device.body)).toEqual(NO_PROBLEMS);
    // A `kid` binds nothing for an anonymous reader (device-bound URLs prove a device): the public document.
    const kid = await api.request('GET', `${feedPath(other.source.source_id)}?kid=k_unknown`);
    expect(kid.headers.get('cache-control')).toBe('public, max-age=60');
    await updateTenantSettings('default', { settings: { feedMaxAgeSeconds: 300 } });
    try {
      const res = await api.request('GET', feedPath(other.source.source_id));
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    } finally {
      await updateTenantSettings('default', { settings: { feedMaxAgeSeconds: 60 } });
    }
  });

  test('clearing a setting takes its key out of the feed (never an empty value); a featured app no longer listed is left out', async () => {
    const other = await makeOwner();
    await createAndPublish(other, player);
    const set = { header_url: 'https://cdn.example.com/h.png', website: 'https://w.example.com', subtitle: 'S', tint_color: '112233', featured_apps: ['com.example.player', 'com.example.gone'] };
    await api.request('PATCH', manage(other.source.source_id), { headers: other.bearer, json: set });
    const before = (await api.request('GET', feedPath(other.source.source_id))).body;
    expect(before).toMatchObject({ featuredApps: ['com.example.player'], headerURL: 'https://cdn.example.com/h.png' });
    const cleared = await api.request('PATCH', manage(other.source.source_id), { headers: other.bearer, json: { header_url: '', website: '', subtitle: '', tint_color: '', featured_apps: [] } });
    expect(cleared.body.code).toBe(1);
    const after = (await api.request('GET', feedPath(other.source.source_id))).body;
    for (const key of ['headerURL', 'website', 'subtitle', 'tintColor', 'featuredApps', 'news', 'description']) expect(after).not.toHaveProperty(key);
    expect(feedProblems(after)).toEqual(NO_PROBLEMS);
  });

  test('a news item about an app the feed does not list keeps its place but names no app', async () => {
    const other = await makeOwner();
    await createAndPublish(other, player);
    await api.request('POST', `${manage(other.source.source_id)}/news`, { headers: other.bearer, json: { title: 'Soon', caption: 'A new app', app_id: 'com.example.later' } });
    const feed = (await api.request('GET', feedPath(other.source.source_id))).body as Json;
    expect((feed.news as Json[])[0]).not.toHaveProperty('appID');
    expect(feedProblems(feed)).toEqual(NO_PROBLEMS);
  });
});

describe('the news API', () => {
  test('list, post and delete; at most 20 items; a missing or foreign item is refused', async () => {
    const owner = await makeOwner();
    const path = `${manage(owner.source.source_id)}/news`;
    const posted = await api.request('POST', path, { headers: { ...owner.bearer, 'X-Lang': 'en' }, json: { title: 'Hello', caption: 'First\nitem' } });
    expect(posted.status).toBe(200);
    const item = posted.body.data as Json;
    expect(item).toMatchObject({ title: 'Hello', caption: 'First\nitem', image_url: null, url: null, app_id: null, tint_color: null, notify: false });
    expect(item.date).toBe(item.created_at);
    const listed = await api.request('GET', path, { headers: owner.bearer });
    expect(listed.body.data).toEqual({ source_id: owner.source.source_id, news: [item], limit: 20 });

    const stranger = await makeOwner();
    const foreign = await api.request('DELETE', `${path}/${String(item.news_id)}`, { headers: stranger.bearer });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 40001, data: { error: 'source_not_found' } });
    expect((await api.request('GET', path, { headers: stranger.bearer })).body.code).toBe(40001);
    expect((await api.request('POST', path, { headers: stranger.bearer, json: { title: 'x', caption: 'y' } })).body.code).toBe(40001);

    const deleted = await api.request('DELETE', `${path}/${String(item.news_id)}`, { headers: owner.bearer });
    expect(deleted.body).toMatchObject({ code: 1, data: { source_id: owner.source.source_id, news_id: item.news_id, deleted: true } });
    const again = await api.request('DELETE', `${path}/${String(item.news_id)}`, { headers: { ...owner.bearer, 'X-Lang': 'en' } });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 40005, msg: 'No such news item in this source', data: { error: 'news_not_found' } });
    const badId = await api.request('DELETE', `${path}/bad%20id`, { headers: owner.bearer });
    expect(badId.status).toBe(404);
    expect(badId.body).toMatchObject({ code: 40005 });

    for (let i = 0; i < 20; i++) expect((await api.request('POST', path, { headers: owner.bearer, json: { title: `T${i}`, caption: 'c' } })).body.code).toBe(1);
    const full = await api.request('POST', path, { headers: { ...owner.bearer, 'X-Lang': 'en' }, json: { title: 'one more', caption: 'c' } });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: 40003, data: { error: 'news_full', limit: 20 } });
    expect(((await api.request('GET', path, { headers: owner.bearer })).body.data as { news: unknown[] }).news).toHaveLength(20);
  });

  test('concurrent deletions each remove their own item', async () => {
    const owner = await makeOwner();
    const path = `${manage(owner.source.source_id)}/news`;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(String(((await api.request('POST', path, { headers: owner.bearer, json: { title: `T${i}`, caption: 'c' } })).body.data as Json).news_id));
    const answers = await Promise.all(ids.slice(0, 3).map((id) => api.request('DELETE', `${path}/${id}`, { headers: owner.bearer })));
    expect(answers.map((a) => a.body.code)).toEqual([1, 1, 1]);
    const left = ((await api.request('GET', path, { headers: owner.bearer })).body.data as { news: Json[] }).news;
    expect(left.map((n) => n.news_id)).toEqual([ids[3]]);
  });

  test.each([
    ['title', { caption: 'c' }],
    ['title', { title: '', caption: 'c' }],
    ['title', { title: 'x'.repeat(101), caption: 'c' }],
    ['title', { title: 'a\nb', caption: 'c' }],
    ['caption', { title: 't' }],
    ['caption', { title: 't', caption: 'x'.repeat(1001) }],
    ['date', { title: 't', caption: 'c', date: 'yesterday' }],
    ['date', { title: 't', caption: 'c', date: 631_152_000 }],
    ['date', { title: 't', caption: 'c', date: '2026-11-20' }],
    ['image_url', { title: 't', caption: 'c', image_url: 'ftp://cdn.example.com/a.png' }],
    ['url', { title: 't', caption: 'c', url: 'not a url' }],
    ['app_id', { title: 't', caption: 'c', app_id: 'player' }],
    ['tint_color', { title: 't', caption: 'c', tint_color: 'orange' }],
    ['notify', { title: 't', caption: 'c', notify: 'yes' }],
  ])('a news item with a bad %s is refused and nothing is posted', async (field, body) => {
    const owner = await makeOwner();
    const path = `${manage(owner.source.source_id)}/news`;
    const res = await api.request('POST', path, { headers: owner.bearer, json: body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, data: { fields: [field] } });
    expect(((await api.request('GET', path, { headers: owner.bearer })).body.data as { news: unknown[] }).news).toEqual([]);
  });

  test('a control character in a caption is refused; unknown fields too', async () => {
    const owner = await makeOwner();
    const path = `${manage(owner.source.source_id)}/news`;
    expect((await api.request('POST', path, { headers: owner.bearer, json: { title: 't', caption: 'a\u0000b' } })).body).toMatchObject({ code: 40002 });
    expect((await api.request('POST', path, { headers: owner.bearer, json: { title: 't', caption: 'c', identifier: 'x' } })).body).toMatchObject({ code: 40002, data: { error: 'unknown_field' } });
  });
});

describe('validating the new source settings', () => {
  test.each([
    ['subtitle', 'x'.repeat(201)],
    ['subtitle', 'two\nlines'],
    ['description', 'x'.repeat(4001)],
    ['header_url', 'ftp://cdn.example.com/h.png'],
    ['header_url', 'header.png'],
    ['website', 'javascript:alert(1)'],
    ['tint_color', 'orange'],
    ['tint_color', '#12345'],
    ['featured_apps', 'com.example.player'],
    ['featured_apps', ['player']],
    ['featured_apps', ['com.example.a', 'com.example.a']],
    ['featured_apps', Array.from({ length: 21 }, (_, i) => `com.example.a${i}`)],
    ['featured_apps', { bundle: 'com.example.a' }],
  ])('source setting %s, bad value #%#, is refused and nothing changes', async (field, value) => {
    const owner = await makeOwner();
    const res = await api.request('PATCH', manage(owner.source.source_id), { headers: owner.bearer, json: { name: 'Changed', [field]: value } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, data: { fields: [field] } });
    expect(((await api.request('GET', feedPath(owner.source.source_id))).body as Json).name).toBe('Fixture source');
  });

  test('featured_apps also arrives as JSON text (a query string or a form)', async () => {
    const owner = await makeOwner();
    const res = await api.request('PATCH', manage(owner.source.source_id), { headers: owner.bearer, form: { featured_apps: '["com.example.player"]', tint_color: 'ABCDEF' } });
    expect(res.body.code).toBe(1);
  });
});

describe('validating the new app fields', () => {
  const base = { name: 'Player', version: '1.0' };
  test.each([
    ['screenshots', { ipad: ['https://dl.example.com/pad.png'] }],
    ['screenshots', { ipad: [{ image_url: 'https://dl.example.com/pad.png' }] }],
    ['screenshots', { iphone: [{ image_url: 'https://dl.example.com/a.png', width: 40000, height: 10 }] }],
    ['screenshots', { iphone: [{ image_url: 'https://dl.example.com/a.png', width: 100 }] }],
    ['screenshots', { iphone: [{ image_url: 'https://dl.example.com/a.png', width: 1.5, height: 2 }] }],
    ['screenshots', { iphone: ['not a url'] }],
    ['screenshots', { iphone: Array.from({ length: 11 }, (_, i) => `https://dl.example.com/${i}.png`) }],
    ['screenshots', { watch: ['https://dl.example.com/a.png'] }],
    ['screenshots', { iphone: [{ imageURL: 'https://dl.example.com/a.png' }] }],
    ['screenshots', 'https://dl.example.com/a.png'],
    ['app_permissions', { privacy: { NSCameraUsageDescription: '' } }],
    ['app_permissions', { privacy: { NSCameraUsageDescription: 'x'.repeat(501) } }],
    ['app_permissions', { privacy: { camera: 'Scans' } }],
    ['app_permissions', { entitlements: 'com.apple.developer.healthkit' }],
    ['app_permissions', { entitlements: ['bad entitlement'] }],
    ['app_permissions', { entitlements: ['a', 'a'] }],
    ['app_permissions', { entitlements: Array.from({ length: 51 }, (_, i) => `e${i}`) }],
    ['app_permissions', { capabilities: [] }],
    ['max_os_version', 'eighteen'],
    ['max_os_version', '14.0', { min_os_version: '15.0' }],
  ] as [string, unknown, Json?][])('app field %s, bad value #%#, is refused and no draft is created', async (field, value, extra = {}) => {
    const owner = await makeOwner();
    const res = await api.request('POST', `${manage(owner.source.source_id)}/apps`, { headers: owner.bearer, json: { ...base, ...extra, [field]: value } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, data: { fields: [field] } });
    expect(await getApp(owner.source.source_id, 1)).toBeUndefined();
  });

  test('a published app may change its screenshots and permissions, not its iOS range', async () => {
    const owner = await makeOwner();
    const id = await createAndPublish(owner, player);
    const appPath = `${manage(owner.source.source_id)}/apps/${id}`;
    const edited = await api.request('PATCH', appPath, { headers: owner.bearer, json: { screenshots: ['https://dl.example.com/new.png'], app_permissions: '{"privacy":{"NSMicrophoneUsageDescription":"Records"}}' } });
    expect(edited.body.code).toBe(1);
    expect(edited.body.data).toMatchObject({
      screenshots: { iphone: [{ url: 'https://dl.example.com/new.png' }], ipad: [] },
      app_permissions: { entitlements: [], privacy: { NSMicrophoneUsageDescription: 'Records' } },
    });
    const feed = (await api.request('GET', feedPath(owner.source.source_id))).body as { apps: Json[] };
    expect(feed.apps[0]).toMatchObject({ screenshots: { iphone: ['https://dl.example.com/new.png'] }, appPermissions: { entitlements: [], privacy: { NSMicrophoneUsageDescription: 'Records' } } });
    expect(feed.apps[0]!.screenshots).not.toHaveProperty('ipad');
    const refused = await api.request('PATCH', appPath, { headers: owner.bearer, json: { max_os_version: '19.0' } });
    expect(refused.body).toMatchObject({ code: 40003, data: { error: 'published_immutable', fields: ['max_os_version'] } });
  });

  test("the CLI's app create takes the new fields as flags, validated the same way", async () => {
    const owner = await makeOwner();
    const made = await commands['app create']!({
      source: owner.source.source_id,
      name: 'Cli App',
      version: '1.0',
      'download-url': 'https://dl.example.com/cli.ipa',
      'max-os-version': '17.5',
      screenshots: '{"iphone":["https://dl.example.com/c1.png"]}',
      'app-permissions': '{"entitlements":["aps-environment"]}',
    });
    const app = await getApp(owner.source.source_id, Number(made.id));
    expect(app).toMatchObject({ max_os_version: '17.5', screenshots: { iphone: [{ url: 'https://dl.example.com/c1.png' }], ipad: [] }, app_permissions: { entitlements: ['aps-environment'], privacy: {} } });
    await expect(commands['app create']!({ source: owner.source.source_id, name: 'X', version: '1', 'download-url': 'https://dl.example.com/x.ipa', screenshots: '{"ipad":["https://dl.example.com/p.png"]}' })).rejects.toThrow(/--screenshots/);
    await expect(
      commands['app create']!({ source: owner.source.source_id, name: 'X', version: '1', 'download-url': 'https://dl.example.com/x.ipa', 'min-os-version': '16', 'max-os-version': '15' }),
    ).rejects.toThrow(/--max-os-version/);
  });
});
