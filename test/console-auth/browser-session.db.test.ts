/**
 * The console session as a browser holds it: headless Chromium (Debian's) on the local runtime's plain
 * http://127.0.0.1 keeps the Secure cookie, sends it by itself, never shows it to a script (HttpOnly), and a
 * page's write goes through only with the CSRF token the sign-in answered.
 */
import type { Browser } from 'playwright-core';
import { getSource } from '../../shared/db/repositories/source-repository';
import { admin } from '../support/admin-cli';
import { startTestApi, type TestApi } from '../support/api';
import { launchChromium } from '../support/browser';
import { makeOwner } from '../support/fixtures';

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

test('Chromium keeps the Secure, HttpOnly session cookie on http://127.0.0.1 and sends it; writes need the CSRF token', async () => {
  const owner = await makeOwner();
  const login = `browser-${owner.user.userId}`;
  expect((await admin('user', 'set-password', '--user', owner.user.userId, '--password', 'a browser password', '--login', login)).code).toBe(0);
  const page = await browser.newPage();
  // Any page of the same origin, and one that runs no script of its own: the session route's own answer (a
  // 401 before sign-in). The docs page served here before spent seconds of both cores on Swagger UI and on the
  // OpenAPI document (built in this process, stalling the API) at each load: most of this test's 17 s.
  await page.goto(`${api.url}/api/user/session`);
  const call = (method: string, path: string, body?: unknown, csrf?: string) =>
    page.evaluate(
      async ([m, p, b, c]) => {
        const res = await fetch(p as string, { method: m as string, headers: { 'Content-Type': 'application/json', 'X-Lang': 'en', ...(c ? { 'X-CSRF-Token': c as string } : {}) }, ...(b === undefined ? {} : { body: JSON.stringify(b) }) });
        return { status: res.status, body: (await res.json()) as { code: number; data: Record<string, unknown> } };
      },
      [method, path, body, csrf] as const,
    );

  const signedIn = await call('POST', '/api/user/session', { action: 'sign_in', login, password: 'a browser password' });
  expect(signedIn.body.code).toBe(1);
  const csrf = signedIn.body.data.csrf_token as string;
  expect(await page.evaluate('document.cookie')).not.toContain('console_session');
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'console_session')).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });

  // A reloaded page gets its session and CSRF token back from GET.
  await page.reload();
  expect((await call('GET', '/api/user/session')).body).toMatchObject({ code: 1, data: { csrf_token: csrf, user: { login } } });
  const path = `/api/appstore/manage/sources/${owner.source.source_id}`;
  expect(await call('PATCH', path, { name: 'From the browser' })).toMatchObject({ status: 403, body: { data: { error: 'csrf_invalid' } } });
  expect((await getSource(owner.source.source_id))!.name).toBe('Fixture source');
  expect((await call('PATCH', path, { name: 'From the browser' }, csrf)).body.code).toBe(1);
  expect((await getSource(owner.source.source_id))!.name).toBe('From the browser');

  expect((await call('POST', '/api/user/session', { action: 'sign_out' }, csrf)).body.code).toBe(1);
  expect((await page.context().cookies()).find((c) => c.name === 'console_session')).toBeUndefined();
  expect(await call('GET', '/api/user/session')).toMatchObject({ status: 401, body: { code: 10, data: { error: 'session_expired' } } });
}, 90_000);
