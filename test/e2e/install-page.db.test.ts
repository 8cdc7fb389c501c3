/**
 * The install page in Debian's headless Chromium at an iPhone viewport (390×844): before capture the
 * "Get my UDID" button links to the source's profile; after the device simulator's capture the page shows
 * the UDID, a copy button and the one-tap add-source links; Arabic is laid out right to left; nothing loads
 * from another host and the CSP blocks nothing the page needs.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { startTestApi, type TestApi } from '../support/api';
import { makeOwner, type Owner } from '../support/fixtures';
import { addTrustAnchor } from '../../shared/domain/udid-capture/trust-anchors';
import { updateOwnedSource } from '../../shared/db/repositories/source-repository';
import { createDeviceCa, certificatePem } from '../../infra/device-simulator/device-pki';
import { runDevice } from '../../infra/device-simulator/run';
import { launchChromium, IPHONE } from '../support/browser';
import { screenshot } from '../support/screenshots';

jest.setTimeout(120_000);

// The README's pictures of the page (`npm run screenshots` writes them).
const dir = join(process.cwd(), 'test', 'e2e', 'screenshots');

let api: TestApi;
let browser: Browser;
let owner: Owner;
beforeAll(async () => {
  api = await startTestApi();
  owner = await makeOwner();
  await updateOwnedSource({ tenantId: 'default', userId: owner.user.userId }, owner.source.source_id, { name: 'Nova Apps', message: 'New: weekly builds every Friday.' }, 1_700_000_000);
  browser = await launchChromium();
  mkdirSync(dir, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

test('before and after capture, in English and Arabic, at 390×844', async () => {
  const ca = createDeviceCa();
  await addTrustAnchor(Buffer.from(certificatePem(ca.root)), 1_700_000_000);
  const installUrl = `${api.url}/api/rjy/${owner.source.source_id}/install`;

  const context = await browser.newContext({ ...IPHONE, locale: 'en-US' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('requestfailed', (r) => problems.push(`failed ${r.url()}`));
  const before = await page.goto(installUrl);
  expect(before!.headers()['content-security-policy']).toContain("script-src 'nonce-");
  expect(await page.textContent('h1')).toBe('Nova Apps');
  expect(await page.textContent('#get-udid')).toBe('Get my UDID');
  expect(await page.getAttribute('#get-udid', 'href')).toBe(`${api.url}/api/rjy/${owner.source.source_id}/udid.mobileconfig`);
  await screenshot(page, join(dir, 'install-page-before.png'));

  const udid = '00008030-001A2B3C4D5E6F70';
  const run = await runDevice(ca, `${api.url}/api/rjy/${owner.source.source_id}/udid.mobileconfig`, { udid });
  expect(run.result.status).toBe(301);
  await page.goto(run.result.location!);
  expect(await page.textContent('#udid')).toBe(udid);
  const links = await page.$$eval('.apps a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
  // The device-bound feed URL: an opaque device key, never the UDID in clear.
  const feed = (await page.textContent('#feed-url'))!;
  expect(feed).toMatch(new RegExp(`^${api.url}/api/rjy/${owner.source.source_id}/appstore\\?dk=[A-Za-z0-9_-]{16,}$`));
  expect(feed).not.toContain(udid);
  expect(links).toEqual([
    ['AltStore', `altstore://source?url=${encodeURIComponent(feed)}`],
    ['SideStore', `sidestore://source?url=${encodeURIComponent(feed)}`],
    ['Feather', `feather://source/${feed}`],
    ['ESign', `esign://addsource?url=${encodeURIComponent(feed)}`],
  ]);
  expect(await page.textContent('#feed-url')).toBe(feed);
  // The copy button's script ran (the CSP nonce let it): it copies and says so.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
  await page.click('#copy');
  await page.locator('#copy', { hasText: 'Copied' }).waitFor();
  await screenshot(page, join(dir, 'install-page-after.png'), { fullPage: true });
  expect(problems).toEqual([]);

  // The capture's one-time ticket (`st`) is spent by the first open: another browser captures again.
  const arabic = await browser.newContext({ ...IPHONE, locale: 'ar', extraHTTPHeaders: { 'Accept-Language': 'ar' } });
  const rtl = await arabic.newPage();
  const again = await runDevice(ca, `${api.url}/api/rjy/${owner.source.source_id}/udid.mobileconfig`, { udid });
  await rtl.goto(again.result.location!);
  expect(await rtl.getAttribute('html', 'dir')).toBe('rtl');
  expect(await rtl.textContent('#copy')).toBe('نسخ');
  // The UDID stays left to right inside the right-to-left page.
  expect(await rtl.evaluate("getComputedStyle(document.getElementById('udid')).direction")).toBe('ltr');
  await screenshot(rtl, join(dir, 'install-page-after-ar.png'), { fullPage: true });
  await arabic.close();
  await context.close();
});

test('a capture ticket or a UDID in the URL shows nothing of a device, just the button; an unknown source is a 404 page', async () => {
  const page = await browser.newPage(IPHONE);
  for (const query of ['ticket=aaa.bbb.ccc', `ticket=${'x'.repeat(3000)}`, 'udid=00008030-001A2B3C4D5E6F70']) {
    const res = await page.goto(`${api.url}/api/rjy/${owner.source.source_id}/install?${query}`);
    expect(res!.status()).toBe(200);
    expect(await page.$('#udid')).toBeNull();
    expect(await page.$('#feed-url')).toBeNull();
    expect(await page.textContent('#get-udid')).toBe('Get my UDID');
  }
  const missing = await page.goto(`${api.url}/api/rjy/nope/install`);
  expect(missing!.status()).toBe(404);
  await page.close();
});
