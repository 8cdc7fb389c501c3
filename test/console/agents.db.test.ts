/**
 * The console's Agents screen in headless Chromium against the local API. The journey, once, on a laptop in
 * English: create an agent (its token shown once, and working), a top-up the balance does not cover refused in
 * the API's words with nothing moved, a top-up that moves the money, a price below the reseller's own cost
 * refused, suspend and lift. On a phone in Arabic (right to left): the list with the token shown once (an agent
 * created through the form) and the agent's page with the price refusal: signed in, the direction, axe-core,
 * it fits. `npm run screenshots` writes its screenshots to
 * test/e2e/screenshots/console-agents-*.png and console-agent-*.png. */
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import type { TestApi } from '../support/api';
import { makeUser } from '../support/fixtures';
import { checkScreen, LAPTOP, openConsole, PHONE, expectFits, seriousViolations, SHOTS, withApiAndBrowser } from './screens-support';
import { screenshot } from '../support/screenshots';

jest.setTimeout(180_000);

let api: TestApi;
let browser: Browser;
withApiAndBrowser((started, launched) => ([api, browser] = [started, launched]));

describe('agents (laptop, en)', () => {
  const [name, lang, viewport] = ['laptop', 'en', LAPTOP];
  test('create (token once), a top-up not covered refused, a top-up made, a price below cost refused, suspend and lift', async () => {
    const { user, token } = await makeUser({ balance: 10_000 });
    const headers = { Authorization: `Bearer ${token}`, 'X-Lang': lang };
    const agents = (json: Record<string, unknown>) => api.request('POST', '/api/user/agents', { headers, json });
    const { page, problems, close } = await openConsole(browser, api, { userId: user.userId, token, headers }, viewport, lang, '#/agents');
    await page.waitForSelector('#create-agent');
    expect(await seriousViolations(page)).toEqual([]);

    await page.fill('#create-agent [name="name"]', 'Shop North');
    await page.fill('#create-agent [name="contact"]', 'tg: @north');
    await page.click('#create-agent button[type="submit"]');
    await page.waitForSelector('#agent-token');
    const agentToken = (await page.textContent('#agent-token'))!;
    // The token shown is the agent's own: it answers as the agent.
    const asAgent = await api.request('GET', `/api/user/balance?token=${agentToken}`, { headers: { 'X-Lang': 'en' } });
    expect(asAgent.body).toMatchObject({ code: 1, data: { balance: 0 } });
    await page.waitForSelector('#agent-table tbody tr');
    const agentId = (await page.getAttribute('#agent-table tbody tr', 'data-agent'))!;
    expect(await seriousViolations(page)).toEqual([]);
    await expectFits(page);
    await screenshot(page, join(SHOTS, `console-agents-${name}-${lang}.png`), { fullPage: true });

    await page.click(`#agent-table a[href="#/agents/${agentId}"]`);
    await page.waitForSelector('#agent-topup');
    expect(await page.textContent('#agent-name')).toBe('Shop North');

    // 200.00 is more than the 100.00 the reseller has: the API's refusal, nothing moved.
    const notCovered = await agents({ agent_id: agentId, amount: 20_000 });
    expect(notCovered.body).toMatchObject({ data: { error: 'topup_not_covered' } });
    await page.fill('#agent-topup [name="amount"]', '200');
    await page.click('#agent-topup button[type="submit"]');
    await page.waitForSelector('#agent-topup .field-error, #agent-topup .form-error');
    expect(await page.textContent('#agent-topup [role="alert"]')).toBe(notCovered.body.msg);

    await page.fill('#agent-topup [name="amount"]', '25.50');
    await page.click('#agent-topup button[type="submit"]');
    await page.waitForSelector('#agent-notice');
    const shown = await agents({ agent_id: agentId });
    expect(shown.body.data).toMatchObject({ balance: 2_550, suspended: false });
    expect((await api.request('GET', `/api/user/balance?token=${token}`, { headers: { 'X-Lang': 'en' } })).body.data).toMatchObject({ balance: 7_450 });
    await page.waitForFunction((want: string) => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector('#agent-balance')?.textContent === want, new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(25.5));

    // A price below the reseller's own cost: refused as the API words it.
    const prices = (shown.body.data as { prices: { mode: string; warranty: number; device_type: string; cost: number }[] }).prices;
    expect(prices.length).toBeGreaterThan(0);
    const first = prices[0]!;
    const below = await agents({ agent_id: agentId, prices: [{ mode: first.mode, warranty: first.warranty, device_type: first.device_type, price: Math.max(0, first.cost - 1) }] });
    expect(below.body).toMatchObject({ data: { error: 'agent_price_below_cost' } });
    await page.fill(`#agent-prices [name="price-${first.mode}/${first.warranty}/${first.device_type}"]`, ((first.cost - 1) / 100).toFixed(2));
    await page.click('#agent-prices button[type="submit"]');
    await page.waitForSelector('#agent-prices .form-error');
    expect(await page.textContent('#agent-prices .form-error')).toBe(below.body.msg);
    expect(await seriousViolations(page)).toEqual([]);
    await expectFits(page);
    await screenshot(page, join(SHOTS, `console-agent-${name}-${lang}.png`), { fullPage: true });

    // Suspended, then lifted.
    await page.click('#agent-suspend');
    await page.waitForSelector('#agent-state.off');
    expect((await agents({ agent_id: agentId })).body.data).toMatchObject({ suspended: true });
    await page.click('#agent-suspend');
    await page.waitForSelector('#agent-state.on');
    expect((await agents({ agent_id: agentId })).body.data).toMatchObject({ suspended: false });
    expect(problems).toEqual([]);
    await close();
  });
});

test("phone, Arabic: the list with a new agent's token shown once; the agent's page with a price below cost refused", async () => {
  const lang = 'ar';
  const { user, token } = await makeUser({ balance: 10_000 });
  const headers = { Authorization: `Bearer ${token}`, 'X-Lang': lang };
  const { page, problems, close } = await openConsole(browser, api, { userId: user.userId, token, headers }, PHONE, lang, '#/agents');
  await page.waitForSelector('#create-agent');
  await checkScreen(page, lang);
  await page.fill('#create-agent [name="name"]', 'Shop North');
  await page.click('#create-agent button[type="submit"]');
  await page.waitForSelector('#agent-token');
  await page.waitForSelector('#agent-table tbody tr');
  await checkScreen(page, lang, 'console-agents-phone-ar.png');

  // A top-up made through the API: the agent's page shows its balance in Arabic digits.
  const agentId = (await page.getAttribute('#agent-table tbody tr', 'data-agent'))!;
  expect((await api.request('POST', '/api/user/agents', { headers, json: { agent_id: agentId, amount: 2_550 } })).body.code).toBe(1);
  await page.click(`#agent-table a[href="#/agents/${agentId}"]`);
  await page.waitForSelector('#agent-prices');
  await page.waitForFunction((want: string) => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector('#agent-balance')?.textContent === want, new Intl.NumberFormat('ar', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(25.5));
  const first = ((await api.request('POST', '/api/user/agents', { headers, json: { agent_id: agentId } })).body.data as { prices: { mode: string; warranty: number; device_type: string; cost: number }[] }).prices[0]!;
  await page.fill(`#agent-prices [name="price-${first.mode}/${first.warranty}/${first.device_type}"]`, ((first.cost - 1) / 100).toFixed(2));
  await page.click('#agent-prices button[type="submit"]');
  await page.waitForSelector('#agent-prices .form-error');
  const below = await api.request('POST', '/api/user/agents', { headers, json: { agent_id: agentId, prices: [{ mode: first.mode, warranty: first.warranty, device_type: first.device_type, price: first.cost - 1 }] } });
  expect(below.body).toMatchObject({ data: { error: 'agent_price_below_cost' } });
  expect(await page.textContent('#agent-prices .form-error')).toBe(below.body.msg);
  await checkScreen(page, lang, 'console-agent-phone-ar.png');
  expect(problems).toEqual([]);
  await close();
});
