/**
 * The console's Integrations screen in headless Chromium against the local API and a real webhook receiver.
 * The journey, once, on a phone in Arabic (right to left): set the webhook (its secret shown once, a bad URL
 * refused beside the field in the API's words), send a test event and see it delivered, then a real event
 * (an add on the App Store Connect simulator, dispatched) in the delivery state and the event stream, whose
 * id is the one the receiver got; a UDID capture in the captures list. On a laptop in English each tab in the
 * states the journey shows (no webhook; the secret and a test event; a delivery; an event; a capture): signed
 * in, the direction, axe-core, it fits. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { runDispatchPass } from '../../shared/domain/events/dispatcher';
import { add, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { launchChromium } from '../support/browser';
import { makeOwner } from '../support/fixtures';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { capture, trustedDeviceCa } from '../self-service/customer-support';
import { cheapPasswordHashes } from '../support/password-cost';
import { checkScreen, expectFits, LAPTOP, openConsole, PHONE, seriousViolations } from './screens-support';
import { screenshot } from '../support/screenshots';

jest.setTimeout(180_000);

const shots = join(process.cwd(), 'test', 'e2e', 'screenshots');

let bed: Testbed;
let receiver: Receiver;
let browser: Browser;
cheapPasswordHashes();
beforeAll(async () => {
  bed = await startTestbed();
  await simulatedAccount(bed.sim, { mode: 'instant', weight: 1 });
  receiver = await startReceiver();
  browser = await launchChromium();
  mkdirSync(shots, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await bed?.close();
});

const nowS = () => Math.floor(Date.now() / 1000);

describe('webhook, events and captures (phone, ar)', () => {
  const [name, lang, viewport] = ['phone', 'ar', PHONE];
  test('set the webhook, a test event delivered, a real event delivered and in the stream, a capture listed', async () => {
    const owner = await makeOwner({ balance: 1_000_000 });
    const reseller = { userId: owner.user.userId, token: owner.token, headers: { ...owner.bearer, 'X-Lang': lang } };
    const { page, problems, close } = await openConsole(browser, bed.api, reseller, viewport, lang, '#/integrations');
    await page.waitForSelector('#webhook-form');
    expect(await page.textContent('#webhook-deliveries')).toContain(lang === 'ar' ? 'لم يُضبط webhook.' : 'No webhook is set.');
    expect(await seriousViolations(page)).toEqual([]);

    // A URL the API refuses: its message beside the field, nothing set.
    const refused = await bed.api.request('PUT', '/api/user/webhook', { headers: reseller.headers, json: { url: 'ftp://example.com/hook' } });
    expect(refused.body.code).toBe(40002);
    await page.$eval('#webhook-form', (form) => form.setAttribute('novalidate', ''));
    await page.fill('#webhook-form [name="url"]', 'ftp://example.com/hook');
    await page.click('#webhook-form button[type="submit"]');
    await page.waitForSelector('#webhook-form .field.invalid');
    expect(await page.textContent('#webhook-form .field.invalid .field-error')).toBe(refused.body.msg);

    // Set: every event type, the secret shown once.
    await page.fill('#webhook-form [name="url"]', receiver.url);
    await page.click('#webhook-form button[type="submit"]');
    await page.waitForSelector('#webhook-secret');
    expect(await page.textContent('#webhook-secret .secret')).toMatch(/^whsec_/);
    await page.waitForSelector('#delivery-state');
    const set = await bed.api.request('GET', '/api/user/webhook', { headers: reseller.headers });
    expect(set.body.data).toMatchObject({ webhook: { url: receiver.url, enabled: true } });

    // A test event: the receiver gets a signed ping, the page shows it delivered with the receiver's status.
    await page.click('#webhook-test');
    await page.waitForSelector('#ping-table tbody tr');
    const pings = receiver.deliveries.filter((d) => d.body.type === 'ping' && d.body.user_id === owner.user.userId);
    expect(pings).toHaveLength(1);
    expect(await page.getAttribute('#ping-table tbody tr', 'data-ok')).toBe('true');
    expect(await page.textContent('#ping-table tbody tr')).toContain(pings[0]!.body.id);
    expect(await page.textContent('#ping-table tbody tr')).toContain('200');
    expect(await seriousViolations(page)).toEqual([]);

    // A real event: an add, dispatched to the receiver; the delivery state and the stream show it.
    const udid = udid25();
    expect((await add(bed.api, { token: owner.token, udid })).body.code).toBe(1);
    await runDispatchPass(nowS());
    const [added] = receiver.deliveries.filter((d) => d.body.type === 'device.added' && d.body.user_id === owner.user.userId);
    expect(added?.body.data).toMatchObject({ udid });
    await page.reload();
    await page.waitForSelector('#delivery-state');
    expect(await page.textContent('#last-status')).toBe('200');
    // The recent deliveries list it: the event, its first attempt, delivered with the receiver's status.
    const row = `#delivery-table tbody tr[data-event="${added!.body.id}"]`;
    expect(await page.$$eval('#delivery-table tbody tr', (rows) => rows.length)).toBe(1);
    expect(await page.getAttribute(row, 'data-ok')).toBe('true');
    expect(await page.textContent(`${row} td[data-label="${lang === 'ar' ? 'المحاولة' : 'Attempt'}"]`)).toBe('1');
    expect(await page.textContent(row)).toContain('device.added');
    expect(await page.textContent(row)).toContain('200');
    expect(await seriousViolations(page)).toEqual([]);
    const fits = () => expectFits(page);
    await fits();
    await screenshot(page, join(shots, `console-integrations-webhook-${name}-${lang}.png`), { fullPage: true });

    await page.goto(`${bed.api.url}/console?lang=${lang}#/integrations/events`);
    await page.waitForSelector('#event-table');
    const rows = await page.$$eval('#event-table tbody tr', (trs) => trs.map((tr) => ({ type: tr.getAttribute('data-type'), text: tr.textContent })));
    expect(rows.map((r) => r.type)).toEqual(['device.added']);
    expect(rows[0]!.text).toContain(added!.body.id);
    expect(rows[0]!.text).toContain(udid);
    expect(await seriousViolations(page)).toEqual([]);
    await fits();
    await screenshot(page, join(shots, `console-integrations-events-${name}-${lang}.png`), { fullPage: true });

    // A UDID captured through the reseller's source profile.
    const captured = udid25();
    await capture(await trustedDeviceCa(), `${bed.api.url}/api/rjy/${owner.source.source_id}/udid.mobileconfig`, captured);
    await page.goto(`${bed.api.url}/console?lang=${lang}#/integrations/captures`);
    await page.waitForSelector('#capture-table');
    expect(await page.$$eval('#capture-table tbody tr .udid', (links) => links.map((a) => a.textContent))).toEqual([captured]);
    await fits();
    expect(await seriousViolations(page)).toEqual([]);

    expect(problems).toEqual([]);
    await close();
  });
});

test('laptop, English: no webhook; the secret and a test event; a delivery; an event; a capture', async () => {
  const lang = 'en';
  const owner = await makeOwner({ balance: 1_000_000 });
  const reseller = { userId: owner.user.userId, token: owner.token, headers: { ...owner.bearer, 'X-Lang': lang } };
  const { page, problems, close } = await openConsole(browser, bed.api, reseller, LAPTOP, lang, '#/integrations');
  await page.waitForSelector('#webhook-form');
  await checkScreen(page, lang);
  // Set through the form: the secret is shown once, beside a test event delivered.
  await page.fill('#webhook-form [name="url"]', receiver.url);
  await page.click('#webhook-form button[type="submit"]');
  await page.waitForSelector('#webhook-secret');
  await page.click('#webhook-test');
  await page.waitForSelector('#ping-table tbody tr');
  await checkScreen(page, lang);
  // An add, dispatched: its delivery, its event; a UDID captured.
  expect((await add(bed.api, { token: owner.token, udid: udid25() })).body.code).toBe(1);
  await runDispatchPass(nowS());
  await capture(await trustedDeviceCa(), `${bed.api.url}/api/rjy/${owner.source.source_id}/udid.mobileconfig`, udid25());
  await page.reload();
  await page.waitForSelector('#delivery-table tbody tr');
  await checkScreen(page, lang, 'console-integrations-webhook-laptop-en.png');
  await page.goto(`${bed.api.url}/console?lang=${lang}#/integrations/events`);
  await page.waitForSelector('#event-table tbody tr');
  await checkScreen(page, lang, 'console-integrations-events-laptop-en.png');
  await page.goto(`${bed.api.url}/console?lang=${lang}#/integrations/captures`);
  await page.waitForSelector('#capture-table tbody tr');
  await checkScreen(page, lang);
  expect(problems).toEqual([]);
  await close();
});
