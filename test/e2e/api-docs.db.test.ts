/**
 * The API docs page, rendered in a real headless Chromium (Debian's; `.ci/run` installs it): every route of
 * the route table appears with its method, and opening one shows its parameters and error answers.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { routes } from '../../shared/routes';
import { startTestApi, type TestApi } from '../support/api';
import { launchChromium } from '../support/browser';
import { screenshot } from '../support/screenshots';

// The flags a root, offline machine needs: no sandbox, and no background calls home that this network refuses.

let api: TestApi;
let browser: Browser;
beforeAll(async () => {
  api = await startTestApi();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

test('/docs renders every route with its method, and an operation shows its parameters and errors', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const failed: string[] = [];
  page.on('requestfailed', (request) => failed.push(request.url()));
  await page.goto(`${api.url}/docs`);
  const expected = routes.flatMap((route) => route.methods.map((method) => `${method} ${route.path}`));
  await page.waitForFunction(`document.querySelectorAll('.opblock').length >= ${expected.length}`, undefined, { timeout: 30_000 });
  const shown = await page.$$eval('.opblock', (blocks) =>
    blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
  );
  expect(shown.sort()).toEqual(expected.sort());

  await page.click('#operations-Devices-device-info-get .opblock-summary');
  await page.waitForSelector('#operations-Devices-device-info-get .parameters');
  const opened = await page.textContent('#operations-Devices-device-info-get');
  expect(opened).toContain('kid');
  expect(opened).toContain('X-Lang');
  expect(opened).toContain('429');
  // Everything the page loads comes from the local server (no CDN).
  expect(failed).toEqual([]);

  const dir = join(process.cwd(), '.local');
  mkdirSync(dir, { recursive: true });
  await screenshot(page, join(dir, 'docs-page.png'), { fullPage: false });
}, 90_000);
