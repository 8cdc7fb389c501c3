/**
 * The console's Sources screen as a reseller uses it, in headless Chromium against the local API. The journeys
 * run once each on a phone (390 px): in Arabic (right to left), create a source (and meet the plan's limit as
 * the API words it), see its install link and QR code, create an app whose IPA disagrees with it and see
 * publishing refused with the field and both values, fix it and publish, read the feed preview; post and
 * delete news, block and unblock a UDID, issue and revoke a device URL, check link health; in English, generate
 * unlock codes and export them as CSV. On a laptop (1440 px, English) each screen those journeys show, in each
 * state with a layout of its own (a refusal beside a form, the refused fields' table, lists with rows, the codes
 * shown once), is set up through the API and checked: signed in, the direction, axe-core finds no serious or
 * critical violation, it fits. `npm run screenshots` writes its screenshots to
 * test/e2e/screenshots/console-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { startTestApi, type TestApi } from '../support/api';
import { launchChromium } from '../support/browser';
import { buildIpa, fileHost, type HostedFile } from '../support/ipa-builder';
import { startLocalServer, type LocalServer } from '../support/local-server';
import { cheapPasswordHashes } from '../support/password-cost';
import { checkScreen, downloadText, LAPTOP, openConsole, PHONE, expectFits, seriousViolations, subscribedReseller, type Reseller } from './screens-support';
import { screenshot } from '../support/screenshots';

jest.setTimeout(180_000);

const shots = join(process.cwd(), 'test', 'e2e', 'screenshots');
const SOURCES = '/api/appstore/manage/sources';

let api: TestApi;
let host: LocalServer;
let browser: Browser;
const files = new Map<string, HostedFile>();
let previous: string | undefined;
cheapPasswordHashes();
beforeAll(async () => {
  previous = process.env.IPA_INSPECTION;
  process.env.IPA_INSPECTION = 'on';
  api = await startTestApi();
  host = await startLocalServer(fileHost(files));
  // The IPA says com.example.player 2.1.0 (build 210).
  files.set('/builds/player.ipa', { body: await buildIpa({ plist: 'binary' }), etag: '"player-210"' });
  browser = await launchChromium();
  mkdirSync(shots, { recursive: true });
}, 180_000);
afterAll(async () => {
  process.env.IPA_INSPECTION = previous;
  await browser?.close();
  await Promise.all([api?.close(), host?.close()]);
});

/** The API's own answer to the same request, in `lang`: what the screen must show. */
async function apiMessage(reseller: Reseller, lang: string, method: string, path: string, json?: unknown) {
  const res = await api.request(method, path, { headers: { ...reseller.headers, 'X-Lang': lang }, ...(json ? { json } : {}) });
  return res.body as { code: number; msg: string; data: Record<string, unknown> };
}

describe('create a source and publish an app (phone, Arabic, right to left)', () => {
  const [viewport, lang, tag] = [PHONE, 'ar', 'phone-ar'];
  test('the plan limit refused with its message; an IPA mismatch refused with the field and both values; fixed, published, in the feed', async () => {
    const reseller = await subscribedReseller(api, { sources: 2 });
    const { page, problems, close } = await openConsole(browser, api, reseller, viewport, lang, '#/sources');
    expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
    await page.waitForSelector('#create-source');
    expect(await seriousViolations(page)).toEqual([]);

    // Create: the screen opens the new source, its feed and install links, the install page's QR code.
    await page.fill('#create-source input[name="name"]', 'Nova Apps');
    await Promise.all([page.waitForURL(/#\/sources\/[^/]+$/), page.click('#create-source button[type="submit"]')]);
    const sourceId = decodeURIComponent(page.url().split('#/sources/')[1]!);
    await page.waitForSelector('#source-name');
    expect(await page.textContent('#source-name')).toBe('Nova Apps');
    expect(await page.textContent('#install-url')).toBe(`${api.url}/api/rjy/${sourceId}/install`);
    expect(await page.textContent('#feed-url')).toBe(`${api.url}/api/rjy/${sourceId}/appstore`);
    expect(await page.getAttribute('#install-qr', 'src')).toMatch(/^data:image\/svg\+xml/);
    expect(await page.$eval('#install-qr', (img) => img.naturalWidth as number)).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);

    // Settings a script set show in the form, as stored.
    expect((await apiMessage(reseller, lang, 'PATCH', `${SOURCES}/${sourceId}`, { website: 'https://nova.example.com/', tint_color: '3478F6', featured_apps: ['com.example.player'] })).code).toBe(1);
    await page.reload();
    await page.waitForSelector('#source-settings');
    const value = (name: string) => page.inputValue(`#source-settings [name="${name}"]`);
    expect([await value('website'), await value('tint_color'), await value('featured_apps'), await value('device_proof')]).toEqual(['https://nova.example.com/', '3478F6', 'com.example.player', 'optional']);

    // Settings changed: only they are sent, saved, read back, and shown again after a reload.
    await page.fill('#source-settings [name="message"]', 'New builds every Friday.');
    await page.fill('#source-settings [name="subtitle"]', 'Weekly builds');
    const [patch] = await Promise.all([page.waitForRequest((req) => req.method() === 'PATCH'), page.click('#source-settings button[type="submit"]')]);
    expect(patch.postDataJSON()).toEqual({ message: 'New builds every Friday.', subtitle: 'Weekly builds' });
    await page.waitForSelector('#source-settings .success');
    expect(await page.textContent('#source-settings .success')).toBe(lang === 'ar' ? 'تم الحفظ.' : 'Saved.');
    const read = await apiMessage(reseller, lang, 'GET', `${SOURCES}/${sourceId}`);
    expect(read.data).toMatchObject({ name: 'Nova Apps', message: 'New builds every Friday.', subtitle: 'Weekly builds', website: 'https://nova.example.com/', encrypt_enabled: 1 });
    await page.reload();
    await page.waitForSelector('#source-settings');
    expect([await value('subtitle'), await value('message'), await value('website')]).toEqual(['Weekly builds', 'New builds every Friday.', 'https://nova.example.com/']);
    await expectFits(page);
    await screenshot(page, join(shots, `console-sources-settings-${tag}.png`), { fullPage: true });

    // The plan holds 2 sources: the second is made by a script, the third refused with the API's words.
    expect((await apiMessage(reseller, lang, 'POST', SOURCES, { name: 'Second' })).code).toBe(1);
    const refusal = await apiMessage(reseller, lang, 'POST', SOURCES, { name: 'Third' });
    expect(refusal).toMatchObject({ code: 40003, data: { error: 'quota_exceeded' } });
    await page.goto(`${api.url}/console?lang=${lang}#/sources`);
    await page.waitForSelector('#source-table');
    expect(await page.$$eval('#source-table tbody tr', (rows) => rows.length)).toBe(2);
    await page.fill('#create-source input[name="name"]', 'Third');
    await page.click('#create-source button[type="submit"]');
    await page.waitForSelector('#create-source .form-error');
    expect(await page.textContent('#create-source .form-error')).toBe(refusal.msg);
    expect(await page.$$eval('#source-table tbody tr', (rows) => rows.length)).toBe(2);
    await expectFits(page);
    await screenshot(page, join(shots, `console-sources-list-${tag}.png`), { fullPage: true });

    // A draft whose version (2.0.0) is not the IPA's (2.1.0): read at once, publishing refused field by field.
    await page.goto(`${api.url}/console?lang=${lang}#/sources/${sourceId}/apps/new`);
    await page.waitForSelector('#app-form');
    const fill = { name: 'Player', version: '2.0.0', bundle_identifier: 'com.example.player', developer_name: 'Example Studio', icon_url: 'https://cdn.example.com/icon.png', download_url: `${host.url}/builds/player.ipa` };
    for (const [name, value] of Object.entries(fill)) await page.fill(`#app-form [name="${name}"]`, value);
    await Promise.all([page.waitForURL(/#\/sources\/[^/]+\/apps\/\d+$/), page.click('#app-form button[type="submit"]')]);
    const appId = Number(page.url().split('/apps/')[1]);
    await page.waitForSelector('#app-inspection .inspection[data-state="ok"]');
    expect(await page.textContent('#app-inspection')).toContain('com.example.player 2.1.0 (210)');
    const mismatch = await apiMessage(reseller, lang, 'POST', `${SOURCES}/${sourceId}/apps/${appId}/publish`);
    expect(mismatch).toMatchObject({ code: 40003, data: { error: 'ipa_mismatch', mismatches: [{ field: 'version', app: '2.0.0', ipa: '2.1.0' }] } });
    await page.click('#publish-app');
    await page.waitForSelector('#ipa-mismatches');
    expect(await page.textContent('#publish-refusal .form-error')).toBe(mismatch.msg);
    expect(await page.$$eval('#ipa-mismatches tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)))).toEqual([['version', '2.0.0', '2.1.0']]);
    expect(await page.textContent('#app-status')).toBe(lang === 'ar' ? 'مسودة' : 'Draft');
    expect(await seriousViolations(page)).toEqual([]);
    await expectFits(page);
    await screenshot(page, join(shots, `console-sources-ipa-mismatch-${tag}.png`), { fullPage: true });

    // Fixed: the version the IPA has; published; the list and the feed show it.
    await page.fill('#app-form [name="version"]', '2.1.0');
    await page.click('#app-form button[type="submit"]');
    await page.waitForSelector('#app-notice');
    await page.click('#publish-app');
    await page.waitForSelector('#unpublish-app');
    expect(await page.textContent('#app-status')).toBe(lang === 'ar' ? 'منشور' : 'Published');
    expect(await page.$('#publish-refusal')).toBeNull();
    const feed = await api.request('GET', `/api/rjy/${sourceId}/appstore`);
    expect((feed.body.apps as { bundleIdentifier: string; versions: { version: string }[] }[]).map((a) => [a.bundleIdentifier, a.versions[0]!.version])).toEqual([['com.example.player', '2.1.0']]);

    await page.goto(`${api.url}/console?lang=${lang}#/sources/${sourceId}/apps`);
    await page.waitForSelector('#app-table');
    expect(await page.textContent(`#app-table tr[data-app="${appId}"]`)).toContain(lang === 'ar' ? 'منشور' : 'Published');
    expect(await seriousViolations(page)).toEqual([]);
    await expectFits(page);
    await screenshot(page, join(shots, `console-sources-apps-${tag}.png`), { fullPage: true });

    // The feed preview is the public feed as a client reads it.
    await page.goto(`${api.url}/console?lang=${lang}#/sources/${sourceId}/settings`);
    await page.click('#feed-preview-button');
    await page.waitForSelector('#feed-preview');
    const preview = JSON.parse((await page.textContent('#feed-preview'))!) as { name: string; subtitle: string; apps: { bundleIdentifier: string }[] };
    expect([preview.name, preview.subtitle, preview.apps.map((a) => a.bundleIdentifier)]).toEqual(['Nova Apps', 'Weekly builds', ['com.example.player']]);
    expect(await seriousViolations(page)).toEqual([]);

    // Only the refusals this journey asked for answered an error; nothing failed in the page.
    expect(problems).toEqual([]);
    await close();
  });
});

describe('unlock codes (phone, English)', () => {
  const [name, viewport] = ['phone', PHONE];
  test('generated, listed, exported as CSV holding exactly the codes the API lists', async () => {
    const reseller = await subscribedReseller(api, { sources: 1 });
    const created = await apiMessage(reseller, 'en', 'POST', SOURCES, { name: 'Locked Apps' });
    const sourceId = String(created.data.source_id);
    const { page, problems, close } = await openConsole(browser, api, reseller, viewport, 'en', `#/sources/${sourceId}/codes`);
    await page.waitForSelector('#codes-form');

    // A refusal beside its field: 0 codes is not a count the API takes.
    await page.fill('#codes-form [name="count"]', '0');
    await page.$eval('#codes-form', (form) => form.setAttribute('novalidate', ''));
    await page.click('#codes-form button[type="submit"]');
    await page.waitForSelector('#codes-form .field-error');
    const refused = await apiMessage(reseller, 'en', 'POST', `${SOURCES}/${sourceId}/unlock-codes`, { count: 0, days: 30 });
    expect(refused.code).toBe(40002);
    expect(await page.textContent('#codes-form .field.invalid .field-error')).toBe(refused.msg);
    expect(await page.getAttribute('#codes-form [name="count"]', 'aria-invalid')).toBe('true');

    await page.fill('#codes-form [name="count"]', '3');
    await page.fill('#codes-form [name="days"]', '30');
    await page.click('#codes-form button[type="submit"]');
    await page.waitForSelector('#codes-new');
    await page.waitForSelector('#codes-table');
    const listed = (await apiMessage(reseller, 'en', 'GET', `${SOURCES}/${sourceId}/unlock-codes`)).data.codes as { code: string }[];
    expect(listed).toHaveLength(3);
    const shown = (await page.textContent('#codes-new .secret'))!.split(' ');
    expect(shown.sort()).toEqual(listed.map((c) => c.code).sort());
    expect(await page.$$eval('#codes-table tbody tr', (rows) => rows.length)).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);
    await expectFits(page);
    await screenshot(page, join(shots, `console-sources-codes-${name}.png`), { fullPage: true });

    const csv = await downloadText(page, () => page.click('#export-codes'));
    expect(csv.name).toBe(`unlock-codes-${sourceId}.csv`);
    const lines = csv.text.replace(/^\ufeff/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('code,days,state,udid,used_at,ends_at');
    expect(lines.slice(1).sort()).toEqual(listed.map((c) => `${c.code},30,unused,,,`).sort());
    expect(problems).toEqual([]);
    await close();
  });
});

describe("a source's other sections (phone, Arabic)", () => {
  const [name, lang, viewport] = ['phone', 'ar', PHONE];
  test('news posted and deleted; a UDID blocked and unblocked; a device URL issued and revoked; link health checked', async () => {
    const reseller = await subscribedReseller(api, { sources: 1 });
    const sourceId = String((await apiMessage(reseller, 'en', 'POST', SOURCES, { name: 'Nova Apps' })).data.source_id);
    const { page, problems, close } = await openConsole(browser, api, reseller, viewport, lang, `#/sources/${sourceId}/news`);
    const section = async (tab: string, ready: string) => {
      await page.goto(`${api.url}/console?lang=${lang}#/sources/${sourceId}/${tab}`);
      await page.waitForSelector(ready);
      expect(await seriousViolations(page)).toEqual([]);
      await expectFits(page);
    };

    // News: posted, listed as the API lists it, deleted.
    await section('news', '#news-form');
    await page.fill('#news-form [name="title"]', 'Friday builds');
    await page.fill('#news-form [name="caption"]', 'New versions every Friday.');
    await page.click('#news-form button[type="submit"]');
    await page.waitForSelector('#news-list li');
    const news = (await apiMessage(reseller, 'en', 'GET', `${SOURCES}/${sourceId}/news`)).data.news as { title: string }[];
    expect(news.map((n) => n.title)).toEqual(['Friday builds']);
    await page.click('#news-list li button');
    await page.waitForSelector('#news-list', { state: 'detached' });
    expect((await apiMessage(reseller, 'en', 'GET', `${SOURCES}/${sourceId}/news`)).data.news).toEqual([]);

    // Block list: a malformed UDID refused beside its field in the API's words; a real one blocked, then unblocked.
    await section('blocklist', '#block-form');
    const malformed = await apiMessage(reseller, lang, 'PUT', `${SOURCES}/${sourceId}/blocklist/not-a-udid`);
    expect(malformed.code).toBe(40002);
    await page.fill('#block-form [name="udid"]', 'not-a-udid');
    await page.click('#block-form button[type="submit"]');
    await page.waitForSelector('#block-form .field.invalid');
    expect(await page.textContent('#block-form .field-error')).toBe(malformed.msg);
    const udid = '00008110-000A1B2C3D4E5F60';
    await page.fill('#block-form [name="udid"]', udid);
    await page.click('#block-form button[type="submit"]');
    await page.waitForSelector('#blocked-table tbody tr');
    expect(await page.textContent('#blocked-table tbody tr td')).toBe(udid);
    expect(await seriousViolations(page)).toEqual([]);
    await page.click('#blocked-table tbody tr button');
    await page.waitForSelector('#blocked-table', { state: 'detached' });
    expect((await apiMessage(reseller, 'en', 'GET', `${SOURCES}/${sourceId}/blocklist`)).data.blocked).toEqual([]);

    // Device URL: issued (the feed URL with the device's key), revoked.
    await section('device-urls', '#device-url-form');
    await page.fill('#device-url-form [name="udid"]', udid);
    await page.click('#device-url-form button[type="submit"]');
    await page.waitForSelector('#device-url');
    expect(await page.textContent('#device-url')).toMatch(new RegExp(`/api/rjy/${sourceId}/appstore\\?dk=`));
    await page.click('#device-url-form button.danger');
    await page.waitForSelector('#device-url', { state: 'detached' });

    // Link health: no published app yet, checked now: nothing probed.
    await section('health', '#health-check');
    await page.click('#health-check');
    await page.waitForSelector('section[aria-labelledby="health-title"] .success');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, join(shots, `console-sources-health-${name}-${lang}.png`), { fullPage: true });
    expect(problems).toEqual([]);
    await close();
  });
});

test('laptop, English: each screen and state those journeys show, set up through the API', async () => {
  const lang = 'en';
  const reseller = await subscribedReseller(api, { sources: 2 });
  const { page, problems, close } = await openConsole(browser, api, reseller, LAPTOP, lang, '#/sources');
  const open = async (hash: string, ready: string) => {
    await page.goto(`${api.url}/console?lang=${lang}${hash}`);
    await page.waitForSelector(ready);
  };
  // The list with no source yet, its create form.
  await page.waitForSelector('#create-source');
  await checkScreen(page, lang);

  // A source with its settings: its page, the install link and QR code, the settings form.
  const sourceId = String((await apiMessage(reseller, lang, 'POST', SOURCES, { name: 'Nova Apps' })).data.source_id);
  expect((await apiMessage(reseller, lang, 'PATCH', `${SOURCES}/${sourceId}`, { website: 'https://nova.example.com/', tint_color: '3478F6', message: 'New builds every Friday.', subtitle: 'Weekly builds' })).code).toBe(1);
  await open(`#/sources/${sourceId}`, '#source-settings');
  expect(await page.getAttribute('#install-qr', 'src')).toMatch(/^data:image\/svg\+xml/);
  await checkScreen(page, lang, 'console-sources-settings-laptop-en.png');

  // The list with two rows and the plan's refusal beside the create form.
  expect((await apiMessage(reseller, lang, 'POST', SOURCES, { name: 'Second' })).code).toBe(1);
  const refusal = await apiMessage(reseller, lang, 'POST', SOURCES, { name: 'Third' });
  expect(refusal.code).toBe(40003);
  await open('#/sources', '#source-table');
  await page.fill('#create-source input[name="name"]', 'Third');
  await page.click('#create-source button[type="submit"]');
  await page.waitForSelector('#create-source .form-error');
  expect(await page.textContent('#create-source .form-error')).toBe(refusal.msg);
  await checkScreen(page, lang, 'console-sources-list-laptop-en.png');

  // A draft the IPA disagrees with: publishing refused, the fields' table.
  const draft = await apiMessage(reseller, lang, 'POST', `${SOURCES}/${sourceId}/apps`, { name: 'Player', version: '2.0.0', bundle_identifier: 'com.example.player', developer_name: 'Example Studio', icon_url: 'https://cdn.example.com/icon.png', download_url: `${host.url}/builds/player.ipa` });
  const appId = Number(draft.data.id);
  await open(`#/sources/${sourceId}/apps/${appId}`, '#app-inspection .inspection[data-state="ok"]');
  await page.click('#publish-app');
  await page.waitForSelector('#ipa-mismatches');
  expect(await page.$$eval('#ipa-mismatches tbody tr', (rows) => rows.length)).toBe(1);
  await checkScreen(page, lang, 'console-sources-ipa-mismatch-laptop-en.png');

  // Fixed and published: the apps list with its row; the feed preview.
  expect((await apiMessage(reseller, lang, 'PATCH', `${SOURCES}/${sourceId}/apps/${appId}`, { version: '2.1.0' })).code).toBe(1);
  expect((await apiMessage(reseller, lang, 'POST', `${SOURCES}/${sourceId}/apps/${appId}/publish`)).code).toBe(1);
  await open(`#/sources/${sourceId}/apps`, `#app-table tr[data-app="${appId}"]`);
  await checkScreen(page, lang, 'console-sources-apps-laptop-en.png');
  await open(`#/sources/${sourceId}/settings`, '#feed-preview-button');
  await page.click('#feed-preview-button');
  await page.waitForSelector('#feed-preview');
  expect(await seriousViolations(page)).toEqual([]);

  // Unlock codes: generated (the codes shown once above their table).
  await open(`#/sources/${sourceId}/codes`, '#codes-form');
  await page.fill('#codes-form [name="count"]', '3');
  await page.fill('#codes-form [name="days"]', '30');
  await page.click('#codes-form button[type="submit"]');
  await page.waitForSelector('#codes-new');
  await page.waitForSelector('#codes-table');
  expect(await page.$$eval('#codes-table tbody tr', (rows) => rows.length)).toBe(3);
  await checkScreen(page, lang, 'console-sources-codes-laptop.png');

  // The other sections, each with something listed: news, a blocked UDID, the device URL form, link health checked.
  expect((await apiMessage(reseller, lang, 'POST', `${SOURCES}/${sourceId}/news`, { title: 'Friday builds', caption: 'New versions every Friday.' })).code).toBe(1);
  await open(`#/sources/${sourceId}/news`, '#news-list li');
  await checkScreen(page, lang);
  expect((await apiMessage(reseller, lang, 'PUT', `${SOURCES}/${sourceId}/blocklist/00008110-000A1B2C3D4E5F60`)).code).toBe(1);
  await open(`#/sources/${sourceId}/blocklist`, '#blocked-table tbody tr');
  await checkScreen(page, lang);
  await open(`#/sources/${sourceId}/device-urls`, '#device-url-form');
  await checkScreen(page, lang);
  await open(`#/sources/${sourceId}/health`, '#health-check');
  await page.click('#health-check');
  await page.waitForSelector('section[aria-labelledby="health-title"] .success');
  await checkScreen(page, lang, 'console-sources-health-laptop-en.png');
  expect(problems).toEqual([]);
  await close();
});
