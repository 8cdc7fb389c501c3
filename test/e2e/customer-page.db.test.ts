/**
 * The customer's self-service in Debian's headless Chromium at an iPhone viewport (390×844), with the device
 * simulator: capture → the page's first open spends the one-time ticket (303, session cookie, clean URL) →
 * status (another reseller's revoked certificate with its free re-issue) → redeem a code → download the zip
 * (its .p12 opened by openssl with the password beside it, the profile naming the UDID) → the free re-issue.
 * The same URL in another browser opens nothing. `npm run screenshots` writes its screenshots to
 * test/e2e/screenshots/ (the README shows them).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { add, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { makeOwner, type Owner, moveDeviceZt } from '../support/fixtures';
import { updateOwnedSource } from '../../shared/db/repositories/source-repository';
import { createCode } from '../../shared/domain/pricing/activation-codes';
import { capture, trustedDeviceCa } from '../self-service/customer-support';
import { launchChromium, IPHONE } from '../support/browser';
import { screenshot } from '../support/screenshots';

jest.setTimeout(180_000);

const shots = join(process.cwd(), 'test', 'e2e', 'screenshots');

let bed: Testbed;
let browser: Browser;
let owner: Owner;
beforeAll(async () => {
  bed = await startTestbed();
  await simulatedAccount(bed.sim, { mode: 'instant' });
  owner = await makeOwner({ balance: 1_000_000 });
  await updateOwnedSource({ tenantId: 'default', userId: owner.user.userId }, owner.source.source_id, { name: 'Nova Apps', message: 'New: weekly builds every Friday.' }, 1_700_000_000);
  browser = await launchChromium();
  mkdirSync(shots, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await bed?.close();
});

test('capture → status → redeem → download → re-issue, at 390×844; the capture URL opens nothing a second time', async () => {
  const url = bed.api.url;
  const ca = await trustedDeviceCa();
  const udid = udid25();
  // Another reseller sold this device a certificate (tier 1, 40 days of warranty) that Apple revoked since.
  const other = await newUser();
  const revokedKid = String((await add(bed.api, { token: other.token, udid, warranty: '1' })).body.data!.id);
  await moveDeviceZt(revokedKid, 'revoked', 'normal');
  const { code } = await createCode({ userId: owner.user.userId, mode: 'instant', tier: 2 }, Math.floor(Date.now() / 1000));

  const location = await capture(ca, `${url}/api/rjy/${owner.source.source_id}/udid.mobileconfig`, udid);
  const context = await browser.newContext({ ...IPHONE, locale: 'en-US', acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('requestfailed', (r) => problems.push(`failed ${r.url()}`));
  // The browser's own favicon request is the only thing the page does not serve.
  page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && problems.push(`${r.status()} ${r.url()}`));
  page.on('console', (m) => m.type() === 'error' && !m.text().includes('404') && problems.push(m.text()));

  // Status: the ticket is spent, the address bar is clean, the cookie is HttpOnly.
  await page.goto(location);
  expect(page.url()).toBe(`${url}/api/rjy/${owner.source.source_id}/install`);
  const [cookie] = await context.cookies();
  expect([cookie?.name, cookie?.httpOnly, cookie?.sameSite]).toEqual(['customer_session', true, 'Strict']);
  expect(await page.textContent('#udid')).toBe(udid);
  expect(await page.getAttribute('.cert', 'data-state')).toBe('revoked');
  expect(await page.textContent('.cert .state')).toBe('Revoked');
  expect(await page.textContent('.cert form button')).toBe('Re-issue free (warranty)');
  await screenshot(page, join(shots, 'customer-status.png'), { fullPage: true });

  // Redeem: the code typed in lower case; back on the page with the new certificate.
  await page.fill('#code', code.toLowerCase());
  await screenshot(page.locator('#redeem'), join(shots, 'customer-redeem-form.png'));
  await Promise.all([page.waitForURL(/done=ready/), page.click('#redeem button')]);
  expect(await page.textContent('#done')).toBe('Your certificate is ready to download.');
  const states = await page.$$eval('.cert', (cards) => cards.map((c) => c.getAttribute('data-state')));
  expect(states).toEqual(['normal', 'revoked']);
  await screenshot(page, join(shots, 'customer-redeem.png'), { fullPage: true });

  // Download: the zip, its three files, openssl opens the .p12 with the password from password.txt.
  const newKid = await page.getAttribute('.cert[data-state="normal"]', 'data-kid');
  const zipRequests: string[] = [];
  page.on('request', (r) => r.url().includes('/api/customer/download') && zipRequests.push(r.headers().accept ?? ''));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.cert[data-state="normal"] a[download]')]);
  // Fetched asking for the zip (what makes API Gateway hand the bytes over), not followed as a link.
  expect(zipRequests).toEqual(['application/zip']);
  expect(download.suggestedFilename()).toMatch(new RegExp(`-${newKid}\\.zip$`));
  const dir = mkdtempSync(join(tmpdir(), 'customer-e2e-'));
  await download.saveAs(join(dir, download.suggestedFilename()));
  execFileSync('unzip', ['-q', download.suggestedFilename(), '-d', 'out'], { cwd: dir });
  expect(readdirSync(join(dir, 'out')).sort()).toEqual(['certificate.p12', 'password.txt', 'profile.mobileprovision']);
  const password = /: (.*)\r\n$/.exec(readFileSync(join(dir, 'out', 'password.txt'), 'utf8'))![1]!;
  const opened = execFileSync('openssl', ['pkcs12', '-in', join(dir, 'out', 'certificate.p12'), '-passin', `pass:${password}`, '-nokeys'], { encoding: 'utf8' });
  expect(opened).toContain('-----BEGIN CERTIFICATE-----');
  expect(readFileSync(join(dir, 'out', 'profile.mobileprovision')).toString('latin1')).toContain(udid);
  await screenshot(page.locator('.cert[data-state="normal"]'), join(shots, 'customer-download.png'));

  // The free re-issue of the other reseller's revoked certificate: free, a certificate again.
  await Promise.all([page.waitForURL(/done=ready/), page.click('.cert[data-state="revoked"] form button')]);
  expect(await page.$$eval('.cert', (cards) => cards.map((c) => c.getAttribute('data-state')))).toEqual(['normal', 'normal', 'revoked']);
  expect(await page.$('.cert form')).toBeNull();
  expect(problems).toEqual([]);

  // The capture's URL in another browser (shared, copied): spent — a notice and the button, nothing else.
  const stranger = await browser.newContext({ ...IPHONE, locale: 'ru', extraHTTPHeaders: { 'Accept-Language': 'ru' } });
  const theirs = await stranger.newPage();
  await theirs.goto(location);
  expect(await theirs.textContent('#notice')).toContain('Эта ссылка уже использована');
  expect(await theirs.$('#udid')).toBeNull();
  expect(await theirs.content()).not.toContain(udid);
  await screenshot(theirs, join(shots, 'customer-spent-ticket-ru.png'));
  // A typed UDID on the tenant's page: nothing either.
  await theirs.goto(`${url}/api/customer?udid=${udid}`);
  expect(await theirs.$('.cert')).toBeNull();
  await stranger.close();
  await context.close();
});
