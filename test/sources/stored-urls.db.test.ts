/**
 * Issue 33: every stored URL is stored as URL parsing gives it (`new URL(s).href`): scheme and host in lower
 * case, an IDN host in punycode, spaces and other characters percent-encoded. So what the feed hands out and
 * the gate's `Location` are valid as they stand, and equal to what is stored.
 */
import { startTestApi, type TestApi } from '../support/api';
import { makeOwner, newUdid, type Owner } from '../support/fixtures';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const manage = (owner: Owner, rest = '') => `/api/appstore/manage/sources/${owner.source.source_id}${rest}`;

const DOWNLOAD = { given: 'HTTPS://DL.Example.COM/my app/é.ipa', stored: 'https://dl.example.com/my%20app/%C3%A9.ipa' };
const ICON = { given: 'https://ÄPP.example/ico n.png?q=a b', stored: 'https://xn--pp-uia.example/ico%20n.png?q=a%20b' };
const SHOT = { given: 'HTTPS://CDN.Example.COM:443/shot 1.png', stored: 'https://cdn.example.com/shot%201.png' };
const WEBSITE = { given: 'HTTP://Bücher.Example/shop', stored: 'http://xn--bcher-kva.example/shop' };
const HEADER = { given: '  https://cdn.example.com/my header.png ', stored: 'https://cdn.example.com/my%20header.png' };
const HOOK = { given: 'HTTP://Hooks.Example.COM/a b', stored: 'http://hooks.example.com/a%20b' };

test('app URLs (download, icon, screenshots) are stored normalized; the feed carries them and the gate redirects to exactly the stored URL', async () => {
  const owner = await makeOwner();
  const created = await api.request('POST', manage(owner, '/apps'), {
    headers: owner.bearer,
    json: {
      name: 'Player',
      version: '1.0',
      download_url: DOWNLOAD.given,
      bundle_identifier: 'com.example.player',
      developer_name: 'Example Studio',
      icon_url: ICON.given,
      size: 2048,
      screenshots: { iphone: [SHOT.given], ipad: [{ image_url: SHOT.given, width: 2048, height: 1536 }] },
    },
  });
  expect(created.body).toMatchObject({
    code: 1,
    data: {
      download_url: DOWNLOAD.stored,
      icon_url: ICON.stored,
      screenshots: { iphone: [{ url: SHOT.stored }], ipad: [{ url: SHOT.stored, width: 2048, height: 1536 }] },
    },
  });
  const id = created.body.data!.id as number;
  // an edit goes through the same rule
  const edited = await api.request('PATCH', manage(owner, `/apps/${id}`), { headers: owner.bearer, json: { icon_url: ICON.given.toUpperCase().replace('HTTPS', 'https') } });
  expect(edited.body.data).toMatchObject({ icon_url: new URL(ICON.given.toUpperCase().replace('HTTPS', 'https')).href });
  expect((await api.request('POST', manage(owner, `/apps/${id}/publish`), { headers: owner.bearer })).body.code).toBe(1);

  // the gate hands a download only to a device: read the feed as one
  const feed = (await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore?udid=${newUdid()}`)).body as unknown as {
    apps: { downloadURL: string; screenshots: { iphone: unknown[] } }[];
  };
  expect(feed.apps[0]!.screenshots.iphone).toEqual([SHOT.stored]);
  const link = new URL(feed.apps[0]!.downloadURL);
  const gate = await api.request('GET', `${link.pathname}${link.search}`);
  expect(gate.status).toBe(302);
  expect(gate.headers.get('location')).toBe(DOWNLOAD.stored);
});

test('source URLs (icon, header, website, the health alert webhook) and news URLs are stored normalized', async () => {
  const owner = await makeOwner();
  const patched = await api.request('PATCH', manage(owner), {
    headers: owner.bearer,
    json: {
      source_icon: ICON.given,
      header_url: HEADER.given,
      website: WEBSITE.given,
      health_alert: { enabled: true, webhook_url: HOOK.given },
    },
  });
  expect(patched.body.code).toBe(1);
  const detail = await api.request('GET', manage(owner), { headers: owner.bearer });
  expect(detail.body.data).toMatchObject({
    source_icon: ICON.stored,
    health_alert: { webhook_url: HOOK.stored },
  });
  const feed = (await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore`)).body as Record<string, unknown>;
  expect(feed).toMatchObject({ iconURL: ICON.stored, headerURL: HEADER.stored, website: WEBSITE.stored });

  const news = await api.request('POST', manage(owner, '/news'), {
    headers: owner.bearer,
    json: { title: 'New', caption: 'Out now', image_url: SHOT.given, url: WEBSITE.given },
  });
  expect(news.body).toMatchObject({ code: 1, data: { image_url: SHOT.stored, url: WEBSITE.stored } });
});

test.each([
  ['a space in the host', 'https://dl.exa mple.com/a.ipa'],
  ['a tab inside the path (URL parsing would drop it silently)', 'https://dl.example.com/a\t.ipa'],
  ['no host', 'https://:443/a.ipa'],
  ['another scheme', 'FTP://dl.example.com/a.ipa'],
])('%s is still refused, naming the field', async (_name, url) => {
  const owner = await makeOwner();
  const res = await api.request('POST', manage(owner, '/apps'), { headers: owner.bearer, json: { name: 'X', download_url: url } });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 40002, data: { fields: ['download_url'] } });
});
