/**
 * The source's Figures tab in headless Chromium against the local API. The journey, once, on a laptop (1440 px,
 * English): the day's downloads per app (real redirects through the download gate, summed by the same aggregator
 * the deployed subscription feeds) and the source's installs, as the API answers them; an earlier day shows
 * zeros; the CSV export is the API's. On a phone (390 px, Arabic, right to left) the tab with those figures:
 * signed in, the direction, axe-core finds no serious or critical violation, it fits.
 * `npm run screenshots` writes its screenshots to test/e2e/screenshots/console-source-figures-*.png. */
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import type { TestApi } from '../support/api';
import { makeDraft, newUdid } from '../support/fixtures';
import { startLocalDownloadCounting } from '../../shared/domain/stats/download-counts';
import { installPart, utcDay } from '../../shared/db/repositories/app-tally-repository';
import { transactWrite } from '../../shared/db/transactions';
import { checkScreen, downloadText, expectFits, LAPTOP, openConsole, PHONE, seriousViolations, subscribedReseller, type Reseller, SHOTS, withApiAndBrowser } from './screens-support';
import { screenshot } from '../support/screenshots';

jest.setTimeout(180_000);

const SOURCES = '/api/appstore/manage/sources';
const nowS = () => Math.floor(Date.now() / 1000);

let api: TestApi;
let browser: Browser;
withApiAndBrowser((started, launched) => ([api, browser] = [started, launched]));

/** A source with two published apps, Alpha downloaded 3 times and Beta once today, and 2 installs today. */
async function sourceWithFigures(reseller: Reseller): Promise<{ sourceId: string; alpha: number; beta: number }> {
  const created = await api.request('POST', SOURCES, { headers: reseller.headers, json: { name: 'Nova Apps' } });
  const sourceId = String((created.body.data as { source_id: string }).source_id);
  const ids: number[] = [];
  for (const name of ['Alpha', 'Beta']) {
    const draft = await makeDraft(sourceId, { name });
    expect((await api.request('POST', `${SOURCES}/${sourceId}/apps/${draft.id}/publish`, { headers: reseller.headers })).body.code).toBe(1);
    ids.push(draft.id);
  }
  const [alpha, beta] = ids as [number, number];
  const feed = (await api.request('GET', `/api/rjy/${sourceId}/appstore?udid=${newUdid()}`)).body as unknown as { apps: Array<{ downloadURL: string }> };
  const link = (app: number) => feed.apps.map((a) => new URL(a.downloadURL)).find((u) => u.pathname.endsWith(`/apps/${app}/download`))!;
  const counting = startLocalDownloadCounting();
  try {
    for (const [app, times] of [[alpha, 3], [beta, 1]] as const) {
      for (let i = 0; i < times; i++) expect((await api.request('GET', `${link(app).pathname}${link(app).search}`)).status).toBe(302);
    }
    await counting.flush(nowS());
  } finally {
    counting.stop();
  }
  // Installs are counted in each capture's own transaction; two captures' counts, as they write them.
  for (let i = 0; i < 2; i++) expect((await transactWrite([installPart(reseller.userId, sourceId, nowS())])).ok).toBe(true);
  return { sourceId, alpha, beta };
}

test('the day’s downloads per app and installs, an earlier day, the CSV (laptop, English)', async () => {
  const [viewport, lang, tag] = [LAPTOP, 'en', 'laptop-en'];
  const reseller = await subscribedReseller(api, { sources: 1 });
  const { sourceId } = await sourceWithFigures(reseller);
  const { page, problems, close } = await openConsole(browser, api, reseller, viewport, lang, `#/sources/${encodeURIComponent(sourceId)}/figures`);
  try {
    await page.waitForSelector('#figures-table');
    const rows = (await page.evaluate(`Array.from(document.querySelectorAll('#figures-table tbody tr'), (tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent.trim()))`)) as string[][];
    const n = (v: number) => new Intl.NumberFormat(lang).format(v);
    expect(rows).toEqual([
      ['Alpha', n(3)],
      ['Beta', n(1)],
    ]);
    expect(await page.textContent('#figures-installs')).toContain(n(2));
    expect(await page.getAttribute('#source-tabs a[aria-current="page"]', 'href')).toContain('/figures');
    expect(await seriousViolations(page)).toEqual([]);
    await expectFits(page);
    await screenshot(page, join(SHOTS, `console-source-figures-${tag}.png`), { fullPage: true });

    // The CSV is the API's own for that day.
    const csv = await downloadText(page, () => page.click('#figures-csv'));
    const fromApi = await api.request('GET', `/api/user/stats?by=app&source_id=${sourceId}&period=${utcDay(nowS())}&format=csv`, { headers: reseller.headers });
    expect(csv.text).toBe(String(fromApi.body.raw));
    expect(csv.text).toContain(',Alpha,3\r\n');

    // An earlier day: the same apps, nothing counted.
    await page.fill('#figures-title ~ .card input[name="period"]', utcDay(nowS() - 3 * 86_400));
    await page.waitForFunction((zero) => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> } }).document;
      const cells = Array.from(doc.querySelectorAll('#figures-table tbody td:last-child'), (td) => (td.textContent ?? '').trim());
      return cells.length === 2 && cells.every((c) => c === zero);
    }, n(0));
    expect(await page.textContent('#figures-installs')).toContain(n(0));
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await close();
  }
});

test("phone, Arabic: the tab with a day's figures, in Arabic digits", async () => {
  const reseller = await subscribedReseller(api, { sources: 1 });
  const { sourceId } = await sourceWithFigures(reseller);
  const { page, problems, close } = await openConsole(browser, api, reseller, PHONE, 'ar', `#/sources/${encodeURIComponent(sourceId)}/figures`);
  await page.waitForSelector('#figures-table tbody tr');
  const rows = (await page.evaluate(`Array.from(document.querySelectorAll('#figures-table tbody tr'), (tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent.trim()))`)) as string[][];
  const n = (v: number) => new Intl.NumberFormat('ar').format(v);
  expect(rows).toEqual([
    ['Alpha', n(3)],
    ['Beta', n(1)],
  ]);
  expect(await page.textContent('#figures-installs')).toContain(n(2));
  await checkScreen(page, 'ar', 'console-source-figures-phone-ar.png');
  expect(problems).toEqual([]);
  await close();
});
