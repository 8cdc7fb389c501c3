/**
 * Hostile input on every route: each answer is a clear 4xx in the route's own envelope, nothing is stored,
 * nothing is logged as an error, and the caller's input is never echoed back.
 */
import { startTestApi, type ApiResponse, type TestApi } from '../support/api';
import { makeDraft, makeOwner, newUdid, type Owner } from '../support/fixtures';
import { getSource } from '../../shared/db/repositories/source-repository';
import { getApp } from '../../shared/db/repositories/app-repository';
import { logger } from '../../shared/logger';
import { routes } from '../../shared/routes';
import { translate } from '../../shared/i18n/catalog';
import { languages } from '../../shared/i18n/languages';
import { customerSessionCookie } from '../support/customer-session';

let api: TestApi;
let owner: Owner;
let appId: number;
/** A proven device's session: the session routes reach their parameter checks only with one. */
let session: string;
const errorLogs: unknown[] = [];
let restoreLogger: () => void;

beforeAll(async () => {
  api = await startTestApi();
  owner = await makeOwner({ balance: 1_000_000 });
  appId = (await makeDraft(owner.source.source_id)).id;
  session = await customerSessionCookie(newUdid().toUpperCase());
  const original = logger.error.bind(logger);
  logger.error = ((message: string, ...rest: unknown[]) => {
    errorLogs.push([message, ...rest]);
    original(message);
  }) as typeof logger.error;
  restoreLogger = () => {
    logger.error = original;
  };
});
afterAll(async () => {
  restoreLogger();
  await api.close();
});

type Target = { name: string; method: string; path: () => string; auth: (body: Record<string, unknown>) => { headers: Record<string, string>; body: Record<string, unknown> }; envelope: 'management' | 'device' | 'add' | 'feed' | 'page' };

const bearer = (body: Record<string, unknown>) => ({ headers: { ...owner.bearer }, body });
const tokenParam = (body: Record<string, unknown>) => ({ headers: {}, body: { token: owner.token, ...body } });
const open = (body: Record<string, unknown>) => ({ headers: {}, body });
const withSession = (body: Record<string, unknown>) => ({ headers: { Cookie: session }, body });

const targets: Target[] = [
  { name: 'publish', method: 'POST', path: () => `/api/appstore/manage/sources/${owner.source.source_id}/apps/${appId}/publish`, auth: bearer, envelope: 'management' },
  { name: 'update source', method: 'PATCH', path: () => `/api/appstore/manage/sources/${owner.source.source_id}`, auth: bearer, envelope: 'management' },
  { name: 'device status', method: 'POST', path: () => '/api/device/status', auth: tokenParam, envelope: 'device' },
  { name: 'device info', method: 'POST', path: () => '/api/device/info', auth: tokenParam, envelope: 'device' },
  { name: 'add v2', method: 'POST', path: () => '/api/adddevice/v2', auth: tokenParam, envelope: 'add' },
  { name: 'legacy add', method: 'POST', path: () => '/api/adddevice', auth: tokenParam, envelope: 'add' },
  { name: 'legacy review add', method: 'POST', path: () => '/api/addyydevice', auth: tokenParam, envelope: 'add' },
  { name: 'feed', method: 'GET', path: () => `/api/rjy/${owner.source.source_id}/appstore`, auth: open, envelope: 'feed' },
  { name: 'customer download', method: 'GET', path: () => '/api/customer/download', auth: withSession, envelope: 'page' },
  { name: 'customer redeem', method: 'POST', path: () => '/api/customer/redeem', auth: withSession, envelope: 'page' },
];

function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** A JSON object with one member written raw: JSON.stringify cannot produce `1e400` or a `__proto__` key. */
const withRaw = (base: Record<string, unknown>, key: string, rawValue: string) => JSON.stringify({ ...base, [key]: '\u0001RAW' }).replace('"\\u0001RAW"', rawValue);

const SECRET = 'ECHO_ME_BACK_5f3a';

/** Raw bodies, sent with a JSON content type unless they say otherwise. */
const hostile: { name: string; status: number; reason: string; body: (auth: Record<string, unknown>) => string; contentType?: string }[] = [
  { name: 'a body over 64 KB', status: 413, reason: 'body_too_large', body: (a) => JSON.stringify({ ...a, beizhu: 'x'.repeat(70_000) }) },
  { name: 'JSON nested 40 levels deep', status: 400, reason: 'body_too_complex', body: (a) => JSON.stringify({ ...a, health_alert: nested(40) }) },
  { name: '1,500 keys', status: 400, reason: 'body_too_complex', body: (a) => JSON.stringify({ ...a, health_alert: Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, 1])) }) },
  { name: 'a __proto__ key', status: 400, reason: 'invalid_key', body: (a) => withRaw(a, '__proto__', '{"polluted":1}') },
  { name: 'a nested constructor key', status: 400, reason: 'invalid_key', body: (a) => JSON.stringify({ ...a, health_alert: { constructor: { prototype: 1 } } }) },
  { name: 'an empty key', status: 400, reason: 'invalid_key', body: (a) => JSON.stringify({ ...a, '': 1 }) },
  { name: '1e400', status: 400, reason: 'invalid_value', body: (a) => withRaw(a, 'n', '1e400') },
  { name: '1e-200', status: 400, reason: 'invalid_value', body: (a) => withRaw(a, 'n', '1e-200') },
  { name: 'an integer beyond safe integers', status: 400, reason: 'invalid_value', body: (a) => withRaw(a, 'n', '123456789012345678901234567890') },
  { name: 'a NUL character in a text field', status: 400, reason: 'invalid_value', body: (a) => JSON.stringify({ ...a, name: `a\u0000b`, beizhu: `a\u0000b`, udid: `${newUdid()}\u0000` }) },
  { name: 'a JSON body sent as a form', status: 400, reason: 'unknown_or_invalid', contentType: 'application/x-www-form-urlencoded', body: (a) => `${new URLSearchParams(Object.entries(a).map(([k, v]): [string, string] => [k, String(v)])).toString()}&${encodeURIComponent(`{"${SECRET}":"x"}`)}=1` },
];

function expectEnvelope(target: Target, res: ApiResponse, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  if (target.envelope === 'add') {
    expect(res.body).toMatchObject({ code: 0, ysucc: 'Yerror' });
  } else if (target.envelope === 'page') {
    // A page's refusal: a short HTML page with the localized message, the reason in X-Error (checked by the caller).
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(String(res.body.raw)).toMatch(/^<!doctype html>/);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    return;
  } else {
    expect(res.body.code).toBe(40002);
    if (target.envelope === 'device') expect(res.body).toMatchObject({ ysucc: 'Yerror' });
  }
  expect(typeof res.body.msg).toBe('string');
  expect(JSON.stringify(res.body)).not.toContain(SECRET);
}

describe.each(targets)('$name refuses hostile input', (target) => {
  test.each(hostile)('$name', async (input) => {
    const before = { source: await getSource(owner.source.source_id), app: await getApp(owner.source.source_id, appId) };
    const { headers, body } = target.auth({});
    const raw = input.body(body);
    const method = target.method === 'GET' ? 'POST' : target.method;
    // The feed and the download are read with GET; hostile query strings and bodies reach them all the same.
    const res = await api.request(target.method === 'GET' && target.envelope !== 'management' ? 'GET' : method, target.path(), {
      headers: { ...headers, 'X-Lang': 'en', 'Content-Type': input.contentType ?? 'application/json' },
      body: raw,
    });
    if (input.reason === 'unknown_or_invalid') {
      // Each route decides whether the odd key is unknown (management) or ignored; either way nothing echoes.
      expect(res.status).toBeLessThan(500);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    } else {
      expectEnvelope(target, res, input.status);
      const reason = target.envelope === 'page' ? res.headers.get('x-error') : (res.body.data as { error?: string }).error;
      expect(reason).toBe(input.reason);
    }
    expect(await getSource(owner.source.source_id)).toEqual(before.source);
    expect(await getApp(owner.source.source_id, appId)).toEqual(before.app);
    expect(errorLogs).toEqual([]);
  });
});

describe('the session routes check their parameters, in the caller language', () => {
  const bad: [string, string, string, string][] = [
    ['download, no certificate named', 'GET', '/api/customer/download', 'kid'],
    ['download, a malformed certificate id', 'GET', `/api/customer/download?kid=${encodeURIComponent('<script>')}`, 'kid'],
    ['redeem, no code', 'POST', '/api/customer/redeem', 'code'],
    ['redeem, a malformed code', 'POST', '/api/customer/redeem?code=%00', 'code'],
    ['redeem, an unknown mode', 'POST', '/api/customer/redeem?code=ABCD1234EFGH&mode=forever', 'mode'],
    ['an unknown action', 'POST', '/api/customer/delete', 'action'],
  ];
  test.each(bad)('%s: 400 invalid_value naming the parameter, in all seven languages', async (_name, method, path, field) => {
    const titles = new Set<string>();
    for (const lang of languages) {
      const res = await api.request(method, path, { headers: { Cookie: session, 'X-Lang': lang } });
      expect([res.status, res.headers.get('x-error'), res.headers.get('content-language')]).toEqual([400, 'invalid_value', lang]);
      const title = /<title>([^<]*)<\/title>/.exec(String(res.body.raw))?.[1];
      expect(title).toBe(translate(lang, 'invalid_value', { fields: field }).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`));
      titles.add(title!);
    }
    expect(titles.size).toBe(languages.length);
    expect(errorLogs).toEqual([]);
  });
});

describe('path ids', () => {
  const longId = 'a'.repeat(3000);
  test.each([
    ['publish, a long source id', 'POST', () => `/api/appstore/manage/sources/${longId}/apps/1/publish`, 40001],
    ['publish, an odd source id', 'POST', () => `/api/appstore/manage/sources/${encodeURIComponent('a.b$c')}/apps/1/publish`, 40001],
    ['publish, a long app id', 'POST', () => `/api/appstore/manage/sources/${owner.source.source_id}/apps/${'9'.repeat(200)}/publish`, 40004],
    ['update source, a long source id', 'PATCH', () => `/api/appstore/manage/sources/${longId}`, 40001],
    ['feed, a long source id', 'GET', () => `/api/rjy/${longId}/appstore`, 40001],
    ['feed, a NUL in the source id', 'GET', () => `/api/rjy/${encodeURIComponent('ab\u0000c')}/appstore`, 40001],
    ['feed, a broken percent-encoding in the source id', 'GET', (): string => '/api/rjy/ab%E0%A4%A/appstore', 40001],
    ['publish, a broken percent-encoding in the app id', 'POST', () => `/api/appstore/manage/sources/${owner.source.source_id}/apps/1%ZZ/publish`, 40004],
  ] as const)('%s → 404 with the route’s not-found code', async (_name, method, path, code) => {
    const res = await api.request(method, path(), { headers: { ...owner.bearer, 'X-Lang': 'en', 'Content-Type': 'application/json' }, body: method === 'GET' ? undefined : '{"name":"x"}' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(code);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(JSON.stringify(res.body)).not.toContain('aaaaaaaaaa');
    expect(errorLogs).toEqual([]);
  });
});

test('an odd parameter name is reported as (unnamed), never echoed', async () => {
  const res = await api.request('PATCH', `/api/appstore/manage/sources/${owner.source.source_id}`, {
    headers: { ...owner.bearer, 'X-Lang': 'en', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `${encodeURIComponent(`{"${SECRET}":"x"}`)}=1`,
  });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 40002, data: { error: 'unknown_field', fields: ['(unnamed)'] } });
  expect(res.body.msg).toContain('(unnamed)');
  expect(JSON.stringify(res.body)).not.toContain(SECRET);
});

test('every route answers with nosniff, success included', async () => {
  for (const route of routes) {
    const path = route.path.replace('{source_id}', owner.source.source_id).replace('{app_id}', String(appId));
    const res = await api.request(route.methods[0]!, path, { headers: { ...owner.bearer, 'X-Lang': 'en' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  }
});
