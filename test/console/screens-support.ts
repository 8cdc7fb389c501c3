/**
 * What the console's screen journeys share: a reseller on the local API with a running plan, a browser page
 * signed in as that reseller at a viewport and in a language, axe-core on the page, downloads read back.
 *
 * Signing in: until the person sign-in route (`/api/user/session`) is part of the API, the page is given the
 * reseller's API token as an `Authorization` header (which every management route accepts, as a script would
 * send it; the routes that read the token as a parameter, such as the UDID captures, get it as that parameter)
 * and the session probe is answered in the page. Every other call is the real API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { admin } from '../support/admin-cli';
import type { TestApi } from '../support/api';
import { IPHONE } from '../support/browser';
import { makeUser } from '../support/fixtures';

export const LAPTOP = { viewport: { width: 1440, height: 900 } };
export const PHONE = IPHONE;
export type Viewport = typeof LAPTOP | typeof PHONE;

export interface Reseller {
  userId: string;
  token: string;
  headers: Record<string, string>;
}

/** A reseller on the default tenant subscribed to a plan of `sources` sources (the site's plan, made by the operator CLI). */
export async function subscribedReseller(api: TestApi, { sources = 2 } = {}): Promise<Reseller> {
  const plan = await admin('plan', 'create', '--tenant', 'default', '--name', `Plan ${sources}`, '--price', '100', '--days', '30', '--sources', String(sources), '--apps-per-source', '10', '--published-per-source', '10');
  expect(plan.code).toBe(0);
  const { user, token } = await makeUser({ balance: 10_000 });
  const headers = { Authorization: `Bearer ${token}`, 'X-Lang': 'en' };
  const bought = await api.request('POST', '/api/appstore/manage/subscription', { headers, json: { plan: plan.json.plan_id } });
  expect(bought.body.code).toBe(1);
  return { userId: user.userId, token, headers };
}

export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  /** Responses of 400 and up and page errors seen (a journey's own refusals are expected there). */
  problems: string[];
  close(): Promise<void>;
}

export async function openConsole(browser: Browser, api: TestApi, reseller: Reseller, viewport: Viewport, lang: string, hash: string): Promise<ConsolePage> {
  const context = await browser.newContext({ ...viewport, locale: lang, acceptDownloads: true, extraHTTPHeaders: { Authorization: `Bearer ${reseller.token}` } });
  await context.route('**/api/user/session', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ code: 1, msg: 'ok', data: { csrf_token: 'test', expires_at: Math.floor(Date.now() / 1000) + 3600, session_id: 's1', user: { user_id: reseller.userId, name: 'Nova Reseller', totp_enabled: false } } }),
    }),
  );
  await context.route('**/api/udid/captures?**', (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('token', reseller.token);
    return route.continue({ url: url.toString() });
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror ${e.message}`));
  page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && problems.push(`${r.status()} ${new URL(r.url()).pathname}`));
  await page.goto(`${api.url}/console?lang=${lang}${hash}`);
  return { context, page, problems, close: () => context.close() };
}

const axeSource = readFileSync(join(process.cwd(), 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it stands, as `rule: target` lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not govern.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    // The frame's brand link (not a screen's) loses its only text on a phone: left to the frame's own tests.
    return (await axe.run({ exclude: [['.top .brand']] })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
}

/** Clicks what starts a download and answers the file's name and text. */
export async function downloadText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

/**
 * How wide the screen (what `main` holds) needs to be at the least, in CSS pixels: on a phone it must fit
 * 390 px less `main`'s padding, or the whole page grows wider than the phone and scrolls sideways.
 */
export async function screenMinWidth(page: Page): Promise<{ needs: number; room: number }> {
  return (await page.evaluate(`(() => {
    const main = document.querySelector('main');
    const screen = main.firstElementChild;
    const before = screen.style.width;
    screen.style.width = 'min-content';
    const needs = screen.offsetWidth;
    screen.style.width = before;
    const style = getComputedStyle(main);
    return { needs, room: window.innerWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) };
  })()`)) as { needs: number; room: number };
}
