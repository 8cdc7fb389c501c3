/**
 * The console's files as the local runtime serves them through the route table (the same handler Lambda runs):
 * the page revalidated, the content-hashed files cached for a year, a strict CSP on every answer, text only
 * (API Gateway needs no binary media type), a localized 404 for a path that names no file, and the first
 * load's JavaScript within its 150 KB gzip budget (size is deterministic: a test of the built output).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSOLE_DIST } from '../../infra/tooling/console-build';
import { startTestApi, type TestApi } from '../support/api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const page = () => readFileSync(join(CONSOLE_DIST, 'index.html'), 'utf8');
/** The files the page itself names (its entry script, the modules it preloads, its stylesheet). */
const named = () => [...page().matchAll(/(?:src|href)="\/console\/(assets\/[^"]+)"/g)].map((m) => m[1]!);

function everyFile(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? everyFile(join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]));
}

test('the page: no-cache, a strict CSP without inline script or style, the product security headers', async () => {
  for (const path of ['/console', '/console/', '/console/devices']) {
    const res = await fetch(`${api.url}${path}`);
    expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 200, 'text/html; charset=utf-8']);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    // No inline script or style for the CSP to refuse: every script has a src, no style element or attribute.
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    expect(html).not.toMatch(/<style|style="/);
  }
});

test('the content-hashed files are immutable for a year, and every file is text', async () => {
  const files = everyFile(CONSOLE_DIST);
  expect(files.filter((f) => f.startsWith('assets/')).length).toBeGreaterThan(3);
  for (const file of files) expect([file, /\.(html|js|css|svg)$/.test(file)]).toEqual([file, true]);
  for (const file of named()) {
    const res = await fetch(`${api.url}/console/${file}`);
    expect([file, res.status]).toEqual([file, 200]);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/^(text\/javascript|text\/css); charset=utf-8$/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    // What is served is the built file, byte for byte.
    expect(await res.text()).toBe(readFileSync(join(CONSOLE_DIST, file), 'utf8'));
    // Content-hashed: the name carries a hash, so a new build is a new name.
    expect(file).toMatch(/-[A-Za-z0-9_-]{8}\.(js|css)$/);
  }
});

test('a path that names no file is a 404 in the request language, and names nothing internal', async () => {
  const res = await fetch(`${api.url}/console/assets/nope-12345678.js`, { headers: { 'X-Lang': 'ar' } });
  expect(res.status).toBe(404);
  expect(res.headers.get('x-error')).toBe('console_file_not_found');
  expect(await res.text()).toBe('لا يوجد ملف كهذا في لوحة التحكم');
  const traversal = await fetch(`${api.url}/console/..%2F..%2Fhandler.ts`, { headers: { 'X-Lang': 'en' } });
  expect(traversal.status).toBe(404);
});

test("the first load's JavaScript is at most 150 KB gzipped", () => {
  // The page's own scripts and preloads, and the sign-in form it opens on (its screen's chunk, imported from the entry).
  const entry = named().filter((f) => f.endsWith('.js'));
  const signIn = everyFile(CONSOLE_DIST).filter((f) => /^assets\/sign-in-[^/]+\.js$/.test(f));
  expect(entry.length).toBeGreaterThan(0);
  expect(signIn).toHaveLength(1);
  const gz = [...entry, ...signIn].reduce((sum, f) => sum + gzipSync(readFileSync(join(CONSOLE_DIST, f))).length, 0);
  console.log(`console first load: ${[...entry, ...signIn].join(', ')} = ${(gz / 1024).toFixed(1)} KB gzipped`);
  expect(gz).toBeLessThanOrEqual(150 * 1024);
});
