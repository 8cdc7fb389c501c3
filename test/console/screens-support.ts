/**
 * What the console's screen journeys share: a reseller on the local API (with a running plan where a journey
 * needs one) who signs in as a person through the console's own form (a password the operator CLI set), a
 * page at a viewport and in a language, how wide a screen needs to be, downloads read back. axe-core, the
 * viewports and the problem watch are test/support/console-browser.ts's.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { admin } from '../support/admin-cli';
import { startTestApi, type TestApi } from '../support/api';
import { launchChromium } from '../support/browser';
import { LAPTOP, PHONE, seriousViolations, watchProblems } from '../support/console-browser';
import { makeUser } from '../support/fixtures';
import { cheapPasswordHashes } from '../support/password-cost';
import { screenshot } from '../support/screenshots';

export { LAPTOP, PHONE };
export { seriousViolations } from '../support/console-browser';
export type Viewport = typeof LAPTOP | typeof PHONE;

/** Where the journeys' screenshots go (the README shows some of them). */
export const SHOTS = join(process.cwd(), 'test', 'e2e', 'screenshots');

/** Starts the local API and a Chromium before a test file's tests and hands them to `use`; closes both after them. Passwords hash cheaply (test/support/password-cost.ts). */
export function withApiAndBrowser(use: (api: TestApi, browser: Browser) => void): void {
  cheapPasswordHashes();
  let api: TestApi | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    api = await startTestApi();
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
    use(api, browser);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });
}

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
  /** CSP refusals, script errors, failed requests and answers of 500 and up (console-browser's watch). */
  problems: string[];
  close(): Promise<void>;
}

/**
 * A page signed in as the reseller: the operator sets a password, the person types it into the console's
 * sign-in form; then the screen `hash` names. Every call after is the real API with the session cookie and
 * its CSRF token, as a person's browser makes it. `clock`: the page's timers can be moved on by the test.
 */
export async function openConsole(browser: Browser, api: TestApi, reseller: Reseller, viewport: Viewport, lang: string, hash: string, options: { clock?: boolean } = {}): Promise<ConsolePage> {
  const login = `reseller-${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const set = await admin('user', 'set-password', '--user', reseller.userId, '--password', password, '--login', login);
  expect(set.code).toBe(0);
  const context = await browser.newContext({ ...viewport, locale: lang, acceptDownloads: true });
  // A page whose timers the test moves on (`page.clock.fastForward`): time still runs as usual otherwise.
  if (options.clock) await context.clock.install();
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${api.url}/console?lang=${lang}${hash}`);
  await page.fill('input[autocomplete="username"]', login);
  await page.fill('input[autocomplete="current-password"]', password);
  await page.click('.sign-in button[type="submit"]');
  await page.waitForSelector('nav.nav');
  return { context, page, problems, close: () => context.close() };
}

/**
 * How wide the screen (what `main` holds) needs to be at the least, in CSS pixels, and the room it has (on a
 * phone 390 px less `main`'s padding: a screen that needs more makes the whole page wider than the phone);
 * and how wide the page is against the viewport (wider: it scrolls sideways).
 */
export async function screenMinWidth(page: Page): Promise<{ needs: number; room: number; page: number; viewport: number }> {
  return (await page.evaluate(`(() => {
    const main = document.querySelector('main');
    const screen = main.firstElementChild;
    const before = screen.style.width;
    screen.style.width = 'min-content';
    const needs = screen.offsetWidth;
    screen.style.width = before;
    const style = getComputedStyle(main);
    const room = window.innerWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { needs, room, page: document.documentElement.scrollWidth, viewport: window.innerWidth };
  })()`)) as { needs: number; room: number; page: number; viewport: number };
}

/** The screen fits its viewport: nothing needs more room than it has, and the page does not scroll sideways. */
export async function expectFits(page: Page): Promise<void> {
  const width = await screenMinWidth(page);
  expect(width.needs).toBeLessThanOrEqual(width.room);
  expect(width.page).toBeLessThanOrEqual(width.viewport);
}

/** Clicks what starts a download and answers the file's name and text. */
export async function downloadText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

/**
 * A screen at the size and language its file's journey does not run at, as it stands now: signed in (the
 * console's navigation is there), the language and its direction on the page, no serious or critical axe-core
 * violation, fits the viewport; and its screenshot, under the name the README and test/e2e/screenshots use.
 * The journey proves what the screen does; this, that it renders, fits and is accessible at the other size.
 */
export async function checkScreen(page: Page, lang: string, shot?: string): Promise<void> {
  expect(await page.$('nav.nav')).not.toBeNull();
  expect([await page.getAttribute('html', 'lang'), await page.getAttribute('html', 'dir')]).toEqual([lang, lang === 'ar' ? 'rtl' : 'ltr']);
  expect(await seriousViolations(page)).toEqual([]);
  await expectFits(page);
  if (shot) await screenshot(page, join(SHOTS, shot), { fullPage: true });
}
