/**
 * A reseller's journeys through the console in Debian's headless Chromium, against the local runtime (the route
 * table and handlers `npm start` serves) and the App Store Connect simulator, as a person would use it:
 * - phone (390×844), English: a wrong password refused in the API's words; sign in; the dashboard; add a device
 *   with the price shown first and download its certificate (openssl opens the .p12, the profile names the
 *   UDID); the ledger lists the charge and its CSV export holds it; turn on TOTP from its QR code's secret; sign
 *   out; sign in again with the TOTP code;
 * - laptop (1440×900), Arabic (right to left): sign in; every screen; the device list paged at 20 and its CSV
 *   holding every page; a new API token shown once (the old one refused); another reseller's device id in the URL
 *   answered as not found; a write without the CSRF token refused and nothing changed; an ended session sends
 *   the screen back to the sign-in form with the API's message; a locked account says until when.
 * - phone, Spanish: an invitation link, a too-short password refused next to its field, then signed in.
 * axe-core finds no serious or critical violation on any screen at either size, and the CSP refuses nothing.
 * `npm run screenshots` writes its screenshots to test/e2e/screenshots/console-*.png (the README shows them).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { resetCounter } from '../../shared/db/repositories/console-auth-repository';
import { minuteWindow } from '../../shared/limit-windows';
import { add, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { admin } from '../support/admin-cli';
import { launchChromium } from '../support/browser';
import { LAPTOP, PHONE, seriousViolations, watchProblems } from '../support/console-browser';
import { makeOwner, storedDevice, type Owner } from '../support/fixtures';
import { cheapPasswordHashes } from '../support/password-cost';
import { screenshot } from '../support/screenshots';

jest.setTimeout(240_000);

const shots = join(process.cwd(), 'test', 'e2e', 'screenshots');
const PASSWORD = 'correct horse battery';

let bed: Testbed;
let browser: Browser;
const contexts: BrowserContext[] = [];
let counter = 0;
cheapPasswordHashes();

beforeAll(async () => {
  bed = await startTestbed();
  await simulatedAccount(bed.sim, { mode: 'instant' });
  browser = await launchChromium();
  mkdirSync(shots, { recursive: true });
}, 180_000);
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await bed?.close();
});
// Every sign-in comes from 127.0.0.1: each test starts with that address's failures of the minute forgotten.
beforeEach(async () => {
  for (const at of [Date.now() - 60_000, Date.now()]) await resetCounter(`console-sign-in#ip:127.0.0.1#${minuteWindow(at).id}`);
});

/** A reseller of the default tenant (the one a bare 127.0.0.1 host is) with a password and a login of their own. */
async function person(balance = 100_000): Promise<Owner & { login: string }> {
  const owner = await makeOwner({ balance });
  const login = `console${Date.now().toString(36)}${++counter}`;
  const set = await admin('user', 'set-password', '--user', owner.user.userId, '--password', PASSWORD, '--login', login);
  expect(set.code).toBe(0);
  return { ...owner, login };
}

async function open(view: typeof PHONE | typeof LAPTOP, locale: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ ...view, locale, acceptDownloads: true });
  contexts.push(context);
  const page = await context.newPage();
  return { page, problems: watchProblems(page) };
}

const totpNow = (secret: string, offsetSteps = 0) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

async function signIn(page: Page, login: string, password: string): Promise<void> {
  await page.locator('input[autocomplete="username"]').fill(login);
  await page.locator('input[type="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
}

/** Opens a screen by its address and waits until its content (not the loading line) is there. */
async function screen(page: Page, hash: string, ready: string): Promise<void> {
  await page.evaluate((h) => void ((globalThis as unknown as { location: { hash: string } }).location.hash = h), hash);
  await page.locator(ready).first().waitFor();
}

async function checkA11y(page: Page, label: string): Promise<void> {
  expect([label, await seriousViolations(page)]).toEqual([label, []]);
}

test('phone, English: wrong password, sign in, add a device and download its certificate, the ledger and its CSV, TOTP on, sign in with TOTP', async () => {
  const me = await person();
  const { page, problems } = await open(PHONE, 'en-US');
  await page.goto(`${bed.api.url}/console`);

  // A wrong password: the API's message, next to the form; nobody signed in.
  await signIn(page, me.login, 'not the password');
  await expect(page.getByRole('alert').first().textContent()).resolves.toBe('Wrong login or password');
  await screenshot(page, join(shots, 'console-sign-in-refused.png'), { fullPage: true });

  await signIn(page, me.login, PASSWORD);
  await page.locator('#balance .figure').waitFor();
  expect(await page.textContent('#balance .figure')).toMatch(/1,000\.00/);
  await page.locator('#devices-by-state .states').waitFor();
  await checkA11y(page, 'dashboard, phone');
  await screenshot(page, join(shots, 'console-dashboard-phone.png'), { fullPage: true });

  // Add a device: the price first, then the add, then the certificate and the profile as files.
  const udid = udid25();
  await screen(page, '#/devices/add', '#add-form');
  await page.getByLabel('UDID', { exact: true }).fill(udid);
  await page.locator('#add-form button[type="submit"]').click();
  const price = await page.textContent('#add-price');
  expect(price).toMatch(/^Price: /);
  await checkA11y(page, 'add a device, phone');
  await screenshot(page, join(shots, 'console-add-device.png'), { fullPage: true });
  await page.click('#confirm-add');
  await page.locator('#add-result').waitFor({ timeout: 60_000 });
  const [p12] = await Promise.all([page.waitForEvent('download'), page.click('#download-p12')]);
  const [profile] = await Promise.all([page.waitForEvent('download'), page.click('#download-profile')]);
  const dir = mkdtempSync(join(tmpdir(), 'console-e2e-'));
  await p12.saveAs(join(dir, 'certificate.p12'));
  await profile.saveAs(join(dir, 'profile.mobileprovision'));
  expect(p12.suggestedFilename()).toMatch(/^k.+\.p12$/);
  expect(execFileSync('openssl', ['pkcs12', '-in', join(dir, 'certificate.p12'), '-passin', 'pass:1', '-nokeys'], { encoding: 'utf8' })).toContain('-----BEGIN CERTIFICATE-----');
  expect(readFileSync(join(dir, 'profile.mobileprovision')).toString('latin1')).toContain(udid);
  await screenshot(page, join(shots, 'console-device-added.png'), { fullPage: true });

  // The device list finds it by UDID; the ledger lists the charge, and its CSV export holds it.
  await screen(page, `#/devices?udid=${udid}`, '#device-table');
  expect(await page.locator('#device-table tbody tr').count()).toBe(1);
  await checkA11y(page, 'devices, phone');
  await screenshot(page, join(shots, 'console-devices-phone.png'), { fullPage: true });
  await screen(page, '#/money', '#ledger-table');
  expect(await page.locator('#ledger-table tr[data-kind="charge"]').first().textContent()).toContain(udid);
  await checkA11y(page, 'money, phone');
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-ledger')]);
  await csv.saveAs(join(dir, 'ledger.csv'));
  const rows = readFileSync(join(dir, 'ledger.csv'), 'utf8').replace(/^\ufeff/, '').trim().split('\r\n');
  expect(rows[0]).toMatch(/^seq,time,kind,amount,balance_after,udid,/);
  expect(rows.some((row) => row.includes(',charge,') && row.includes(udid))).toBe(true);

  // The dashboard's last 30 days: today's add in the table, and the route's CSV of the 30 days holds it.
  await screen(page, '#/dashboard', '#day-table');
  expect(await page.locator('#day-table tbody tr').count()).toBe(1);
  expect(await page.locator('#day-table tbody tr td').nth(1).textContent()).toBe('1');
  // Devices by state are the route's counts: the one certificate, usable.
  expect(await page.locator('#devices-by-state a[href*="zt=normal"]').textContent()).toMatch(/\b1$/);
  expect(await page.locator('#devices-by-state .muted').textContent()).toBe('All 1 devices');
  await checkA11y(page, 'dashboard with the days, phone');
  const [days] = await Promise.all([page.waitForEvent('download'), page.click('#days-csv')]);
  expect(days.suggestedFilename()).toMatch(/^stats-.+-day-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  await days.saveAs(join(dir, 'days.csv'));
  const dayRows = readFileSync(join(dir, 'days.csv'), 'utf8').trim().split('\r\n');
  expect(dayRows[0]).toBe('period,start,end,adds,refunds,spend,refunded,agent_adds,sales,cost,margin');
  expect(dayRows).toHaveLength(31);
  expect(dayRows.filter((row) => row.split(',')[3] === '1')).toHaveLength(1);

  // TOTP: set up from the secret beside the QR code, confirmed with a code from it.
  await screen(page, '#/account', '#totp');
  await page.click('#totp button');
  await page.locator('#totp-secret').waitFor();
  expect(await page.getAttribute('#totp img', 'src')).toMatch(/^data:image\/svg\+xml/);
  await checkA11y(page, 'account with the TOTP set-up, phone');
  await screenshot(page, join(shots, 'console-totp-setup.png'), { fullPage: true });
  const secret = (await page.textContent('#totp-secret'))!;
  await page.getByLabel('Code', { exact: true }).fill(totpNow(secret));
  await page.click('#totp form button[type="submit"]');
  await page.getByText('On.', { exact: true }).waitFor();

  // Sign out, then in again: the API asks for the code, the form shows its field, the code signs in.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.locator('input[autocomplete="username"]').waitFor();
  await signIn(page, me.login, PASSWORD);
  const totpField = page.locator('input[autocomplete="one-time-code"]');
  await totpField.waitFor();
  await checkA11y(page, 'sign-in asking for the TOTP code, phone');
  // The next step's code (accepted one step either side): the one confirmed above may not be replayed.
  await totpField.fill(totpNow(secret, 1));
  await page.locator('form button[type="submit"]').click();
  // Signed out to the start: the next sign-in opens the dashboard.
  await page.locator('#balance .figure').waitFor();
  expect(problems).toEqual([]);
});

test('laptop, Arabic: every screen; paging and the devices CSV; a new API token; another reseller’s id, a write without CSRF, an ended session, a locked account', async () => {
  const me = await person();
  const other = await newUser();
  const theirs = String((await add(bed.api, { token: other.token, udid: udid25(), warranty: '1' })).body.data!.id);
  const mine = String((await add(bed.api, { token: me.token, udid: udid25(), warranty: '1' })).body.data!.id);
  // 21 more, older: the list pages at 20.
  for (let i = 0; i < 21; i++) await storedDevice(me.user, { addtime: 1_700_000_000 + i, beizhu: `batch ${i}` });
  const { page, problems } = await open(LAPTOP, 'ar');
  await page.goto(`${bed.api.url}/console`);
  expect(await page.getAttribute('html', 'dir')).toBe('rtl');
  await signIn(page, me.login, PASSWORD);
  await page.locator('#balance .figure').waitFor();
  await checkA11y(page, 'dashboard, laptop, ar');
  await screenshot(page, join(shots, 'console-dashboard-laptop-ar.png'), { fullPage: true });
  for (const [hash, ready, name] of [
    ['#/devices', '#device-table', 'devices'],
    [`#/devices/${mine}`, '#device-details', 'device'],
    ['#/devices/add', '#add-form', 'add'],
    ['#/money', '#ledger-table', 'money'],
    ['#/account', '#sessions ul', 'account'],
  ] as const) {
    await screen(page, hash, ready);
    await checkA11y(page, `${name}, laptop, ar`);
    await screenshot(page, join(shots, `console-${name}-laptop-ar.png`), { fullPage: true });
  }

  // Paging: 20 rows, then the other 2; back again. The CSV holds every page of the filtered list.
  await screen(page, '#/devices', '#device-table');
  expect(await page.locator('#device-table tbody tr').count()).toBe(20);
  await page.locator('.paging button').last().click();
  await page.locator('.paging [aria-live]').filter({ hasText: '2' }).waitFor();
  // The first page's rows stand until the second's arrive: wait for the table to hold the second page.
  const rowsAre = (n: number) => page.waitForFunction(
      (want) => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('#device-table tbody tr').length === want,
      n,
      { timeout: 15_000 },
    );
  await rowsAre(2);
  expect(await page.locator('#device-table tbody tr').count()).toBe(2);
  await page.locator('.paging button').first().click();
  await rowsAre(20);
  const [devicesCsv] = await Promise.all([page.waitForEvent('download'), page.click('#export-devices')]);
  const csvDir = mkdtempSync(join(tmpdir(), 'console-e2e-'));
  await devicesCsv.saveAs(join(csvDir, 'devices.csv'));
  const deviceRows = readFileSync(join(csvDir, 'devices.csv'), 'utf8').replace(/^\ufeff/, '').trim().split('\r\n');
  expect(deviceRows[0]).toBe('udid,kid,zt,enabled,type,shtype,pool,addtime,ytime,beizhu,pname');
  expect(deviceRows).toHaveLength(23);
  expect(deviceRows.filter((row) => row.includes(mine))).toHaveLength(1);

  // A new API token from the account screen: shown once; the old one is refused from then on.
  await screen(page, '#/account', '#api-token form');
  await page.locator('#api-token input[type="password"]').fill(PASSWORD);
  await page.locator('#api-token button[type="submit"]').click();
  await page.locator('#new-token').waitFor();
  const newToken = (await page.textContent('#new-token'))!.trim();
  expect(newToken).not.toBe(me.token);
  expect((await bed.api.request('GET', `/api/user/balance?token=${encodeURIComponent(me.token)}`, { headers: { 'X-Lang': 'en' } })).body.code).toBe(10);
  expect((await bed.api.request('GET', `/api/user/balance?token=${encodeURIComponent(newToken)}`, { headers: { 'X-Lang': 'en' } })).body.code).toBe(1);

  // Another reseller's certificate in the URL: the API's not-found, in Arabic; nothing of theirs shown.
  await screen(page, `#/devices/${theirs}`, '.error-box');
  expect(await page.textContent('.error-box')).toContain('device_not_found');
  expect(await page.locator('#device-details').count()).toBe(0);

  // A write without the CSRF token (a forged request would carry the cookie but not the token): refused, nothing changed.
  const forged = await page.evaluate(async (kid) => {
    const res = await fetch('/api/device/status', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Lang': 'en' }, body: JSON.stringify({ kid, action: 'disable' }) });
    return { status: res.status, body: (await res.json()) as { data: { error: string } } };
  }, mine);
  expect([forged.status, forged.body.data.error]).toEqual([403, 'csrf_invalid']);
  await screen(page, `#/devices/${mine}`, '#device-enabled');
  expect(await page.getAttribute('#device-enabled', 'class')).toContain('on');
  // The console's own write carries it: disable works.
  await page.locator('#device-details button.danger').click();
  await page.locator('#device-details .success').waitFor();
  await page.locator('#device-enabled.off').waitFor();

  // The session ended elsewhere (the operator reset the password: every session ends): the next call sends the
  // screen back to the sign-in form, saying so in the API's words.
  expect((await admin('user', 'set-password', '--user', me.user.userId, '--password', PASSWORD)).code).toBe(0);
  await page.evaluate(() => void ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/money'));
  await page.locator('input[autocomplete="username"]').waitFor();
  expect(await page.textContent('.notice')).toBeTruthy();
  await checkA11y(page, 'session ended, laptop, ar');
  await screenshot(page, join(shots, 'console-session-ended-ar.png'), { fullPage: true });

  // A locked account: five wrong passwords in the quarter hour, then it says until when.
  for (let i = 0; i < 6; i++) {
    await signIn(page, me.login, `wrong ${i}`);
    await page.locator('[role="alert"]').first().waitFor();
  }
  await page.locator('#locked-until').waitFor();
  expect(await page.textContent('#locked-until')).toMatch(/الحساب مقفل حتى/);
  await checkA11y(page, 'locked, laptop, ar');
  await screenshot(page, join(shots, 'console-locked-ar.png'), { fullPage: true });
  expect(problems).toEqual([]);
});

test('phone, Spanish: an invitation link sets the password (a short one refused next to its field) and signs in', async () => {
  const owner = await makeOwner({ balance: 5_000 });
  const login = `invited${Date.now().toString(36)}`;
  const invited = await admin('user', 'invite', '--user', owner.user.userId, '--login', login, '--base-url', `${bed.api.url}/`);
  expect(invited.code).toBe(0);
  const url = String(invited.json.url);
  expect(url).toMatch(new RegExp(`^${bed.api.url.replace(/\./g, '\\.')}/console/#/invite/`));
  const { page, problems } = await open(PHONE, 'es-ES');
  await page.goto(url);
  await page.getByRole('heading', { name: 'Aceptar la invitación' }).waitFor();
  await page.locator('input[autocomplete="new-password"]').fill('short');
  await page.locator('form button[type="submit"]').click();
  // The API's refusal names the field: its message stands under the password, which says it is invalid.
  const fieldError = page.locator('.field.invalid .field-error');
  await fieldError.waitFor();
  expect(await page.getAttribute('input[autocomplete="new-password"]', 'aria-invalid')).toBe('true');
  await checkA11y(page, 'invitation with a refused password, phone, es');
  await screenshot(page, join(shots, 'console-invite-es.png'), { fullPage: true });
  await page.locator('input[autocomplete="new-password"]').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.locator('#balance .figure').waitFor();
  expect(page.url()).toBe(`${bed.api.url}/console/#/`);
  expect(await page.textContent('.who')).toBe('owner');
  expect(problems).toEqual([]);
});
