/**
 * The console's Apple accounts screen in headless Chromium against the local API and the App Store Connect
 * simulator. The journey, once, on a phone in Arabic (right to left): a wrong key refused in the API's words,
 * connect with the .p8 read from its file, the account listed with its slots and dates, pause and resume,
 * rotate the key, set the membership date, renew the certificate (its progress followed), retire. On a laptop
 * in English the screen empty and then with a key connected through its form (the notice and the account's
 * card): signed in, the direction, axe-core, it fits. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { appleAccountMessages } from '../../shared/i18n/messages/apple-accounts';
import { runAccountRenewals } from '../../shared/domain/accounts/renewal-job';
import { newUser, type Testbed } from '../support/add-device-testbed';
import { CONNECTION_TIMEOUT_MS, keyOf, startConnectionTestbed } from '../support/apple-account-connection';
import { launchChromium } from '../support/browser';
import { cheapPasswordHashes } from '../support/password-cost';
import { checkScreen, expectFits, LAPTOP, openConsole, PHONE, seriousViolations } from './screens-support';
import { screenshot } from '../support/screenshots';

jest.setTimeout(CONNECTION_TIMEOUT_MS * 2);

const shots = join(process.cwd(), 'test', 'e2e', 'screenshots');

let bed: Testbed;
let browser: Browser;
cheapPasswordHashes();
beforeAll(async () => {
  bed = await startConnectionTestbed();
  browser = await launchChromium();
  mkdirSync(shots, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await bed?.close();
});

describe('Apple accounts (phone, ar)', () => {
  const [name, lang, viewport] = ['phone', 'ar' as const, PHONE];
  test('a wrong key refused; connected from the .p8 file; listed with slots; paused, resumed, key rotated, retired', async () => {
    const user = await newUser();
    const headers = { Authorization: `Bearer ${user.token}`, 'X-Lang': lang };
    const team = await bed.sim.createTeam({ mode: 'instant' });
    const { page, problems, close } = await openConsole(browser, bed.api, { ...user, headers }, viewport, lang, '#/apple-accounts', { clock: true });
    await page.waitForSelector('#connect-form');
    expect(await seriousViolations(page)).toEqual([]);

    // A key id Apple does not know: the API's refusal, nothing connected.
    const key = keyOf(team);
    const wrong = await bed.api.request('POST', '/api/user/apple-accounts', { headers, json: { ...key, key_id: 'ZZZZZZZZZZ' } });
    expect(wrong.body).toMatchObject({ code: 40003, data: { error: 'apple_key_invalid' } });
    await page.fill('#connect-form [name="issuer_id"]', key.issuer_id);
    await page.fill('#connect-form [name="key_id"]', 'ZZZZZZZZZZ');
    await page.fill('#connect-form [name="private_key"]', key.private_key);
    await page.click('#connect-form button[type="submit"]');
    await page.waitForSelector('#connect-form .form-error', { timeout: CONNECTION_TIMEOUT_MS });
    expect(await page.textContent('#connect-form .form-error')).toBe(wrong.body.msg);

    // The right key, the .p8 read from its file.
    const dir = mkdtempSync(join(tmpdir(), 'p8-'));
    writeFileSync(join(dir, `AuthKey_${key.key_id}.p8`), key.private_key);
    await page.fill('#connect-form [name="private_key"]', '');
    await page.setInputFiles('#connect-form [name="p8_file"]', join(dir, `AuthKey_${key.key_id}.p8`));
    await page.waitForFunction((selector: string) => {
      const field = (globalThis as unknown as { document: { querySelector(s: string): { value: string } | null } }).document.querySelector(selector);
      return field?.value.includes('PRIVATE KEY') ?? false;
    }, '#connect-form [name="private_key"]');
    await page.fill('#connect-form [name="key_id"]', key.key_id);
    await page.click('#connect-form button[type="submit"]');
    await page.waitForSelector('#account-notice', { timeout: CONNECTION_TIMEOUT_MS });
    expect(await page.textContent('#account-notice')).toBe(appleAccountMessages.apple_account_connected[lang]);
    await page.waitForSelector('#account-list li[data-account]');
    const card = '#account-list li[data-account]';
    expect(await page.textContent(`${card} h2`)).toContain(team.teamId);
    expect(await page.getAttribute(`${card} [data-state]`, 'data-state')).toBe('active');
    expect(await page.$$eval(`${card} table.slots tbody tr`, (rows) => rows.map((r) => [r.getAttribute('data-class'), ...[...r.querySelectorAll('td')].map((td) => td.textContent)]))).toEqual([
      ['iphone', '0', '100', '100'],
      ['ipad', '0', '100', '100'],
      ['mac', '0', '100', '100'],
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await expectFits(page);
    await screenshot(page, join(shots, `console-apple-accounts-${name}-${lang}.png`), { fullPage: true });

    // Pause and resume: the API's words each time, the state as it lists it.
    const accountId = (await page.getAttribute(card, 'data-account'))!;
    const texts = (await import('../../shared/i18n/messages/apple-accounts')).appleAccountMessages;
    const noticeSays = async (message: string) => {
      await page.locator('#account-notice').filter({ hasText: message }).waitFor({ timeout: CONNECTION_TIMEOUT_MS });
      expect(await page.textContent('#account-notice')).toBe(message);
    };
    const clickAndWait = async (button: string, message: string) => {
      await page.click(`${card} .actions button:has-text("${button}")`);
      await noticeSays(message);
    };
    await clickAndWait(lang === 'ar' ? 'إيقاف مؤقت' : 'Pause', texts.apple_account_paused[lang]);
    await page.waitForSelector(`${card} .badge.processing`);
    await clickAndWait(lang === 'ar' ? 'استئناف' : 'Resume', texts.apple_account_resumed[lang]);

    // A new key of the same team.
    const next = bed.sim.createKey(team.teamId);
    await page.click(`${card} .actions button:has-text("${lang === 'ar' ? 'استبدال مفتاح API' : 'Rotate the API key'}")`);
    await page.fill(`${card} form [name="issuer_id"]`, next.issuerId);
    await page.fill(`${card} form [name="key_id"]`, next.keyId);
    await page.fill(`${card} form [name="private_key"]`, next.privateKeyPem);
    await page.click(`${card} form button[type="submit"]`);
    await noticeSays(texts.apple_account_key_rotated[lang]);
    // The list is read again: the new key id shows.
    await page.waitForSelector(`${card} dd.mono:text-is("${next.keyId}")`);

    // The membership date: unknown until given (Apple's API does not say it); the date picked shows.
    expect(await page.textContent(`${card} [data-membership]`)).toBe(lang === 'ar' ? 'غير معروف' : 'Unknown');
    await page.click(`${card} .actions button:has-text("${lang === 'ar' ? 'تعيين تاريخ العضوية' : 'Set the membership date'}")`);
    const renews = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);
    await page.fill(`${card} form [name="membership_renews_at"]`, renews);
    await page.click(`${card} form button[type="submit"]`);
    await noticeSays(texts.apple_account_membership_set[lang]);
    await page.waitForFunction((selector: string) => {
      const dd = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector(selector);
      return !!dd?.textContent && !['Unknown', 'غير معروف'].includes(dd.textContent);
    }, `${card} [data-membership]`);

    // Renewing: answered at once, then the card follows the background job until it is done.
    await clickAndWait(lang === 'ar' ? 'تجديد الشهادة' : 'Renew the certificate', texts.apple_account_renewal_started[lang].replace('{devices}', '0'));
    await page.waitForSelector(`${card} [data-renewal="running"]`);
    const now = Math.floor(Date.now() / 1000);
    await runAccountRenewals(now);
    await runAccountRenewals(now + 61);
    // The screen reads the list again every few seconds while a renewal runs: its next read comes now, not after
    // seconds of waiting.
    await page.clock.fastForward(5_000);
    await page.waitForSelector(`${card} [data-renewal="done"]`, { timeout: CONNECTION_TIMEOUT_MS });

    // Retired, after the confirmation.
    await page.click(`${card} .actions button:has-text("${lang === 'ar' ? 'إيقاف نهائي' : 'Retire'}")`);
    await page.click(`${card} .notice button.danger`);
    await page.waitForSelector(`${card} [data-state="retired"]`, { timeout: CONNECTION_TIMEOUT_MS });
    const listed = await bed.api.request('GET', '/api/user/apple-accounts', { headers });
    expect(listed.body.data).toMatchObject({ accounts: [{ account_id: accountId, state: 'retired', key_id: next.keyId }] });
    expect(problems).toEqual([]);
    await close();
  });
});

test('laptop, English: the screen empty, then a key connected through its form: the notice and the account card', async () => {
  const lang = 'en';
  const user = await newUser();
  const headers = { Authorization: `Bearer ${user.token}`, 'X-Lang': lang };
  const team = await bed.sim.createTeam({ mode: 'instant' });
  const { page, problems, close } = await openConsole(browser, bed.api, { ...user, headers }, LAPTOP, lang, '#/apple-accounts');
  await page.waitForSelector('#connect-form');
  await checkScreen(page, lang);
  const key = keyOf(team);
  await page.fill('#connect-form [name="issuer_id"]', key.issuer_id);
  await page.fill('#connect-form [name="key_id"]', key.key_id);
  await page.fill('#connect-form [name="private_key"]', key.private_key);
  await page.click('#connect-form button[type="submit"]');
  await page.waitForSelector('#account-notice', { timeout: CONNECTION_TIMEOUT_MS });
  await page.waitForSelector('#account-list li[data-account] table.slots');
  await checkScreen(page, lang, 'console-apple-accounts-laptop-en.png');
  expect(problems).toEqual([]);
  await close();
});
