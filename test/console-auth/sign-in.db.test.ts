/**
 * Signing in as a person (issue 44, item 2), through the local runtime on DynamoDB Local: the session cookie,
 * the session on the API's token routes with CSRF on every write, expiry, the second factor, the limits, the
 * session list, token rotation and invitations.
 */
import { Secret, TOTP } from 'otpauth';
import { setClock } from '../../shared/clock';
import { getSource } from '../../shared/db/repositories/source-repository';
import { resetCounter } from '../../shared/db/repositories/console-auth-repository';
import { minuteWindow } from '../../shared/limit-windows';
import { startTestApi, type ApiResponse, type TestApi } from '../support/api';
import { admin, adminWithInput } from '../support/admin-cli';
import { makeOwner, makeTenant, storedDevice, type Owner } from '../support/fixtures';
import { atProductCost, cheapPasswordHashes } from '../support/password-cost';
import { getDevice } from '../../shared/db/repositories/device-repository';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());
// Some hundred hashes are made here (each sign-in, wrong guess, set password): cheaply, but for the two race tests.
cheapPasswordHashes();
// Every test signs in from 127.0.0.1: each starts with that address's failures of the minute forgotten, so
// one test's wrong passwords never count towards another's per-IP limit.
beforeEach(async () => {
  for (const at of [Date.now() - 60_000, Date.now()]) await resetCounter(`console-sign-in#ip:127.0.0.1#${minuteWindow(at).id}`);
});

let counter = 0;
const PASSWORD = 'correct horse battery';

/** A reseller with a source, a password and a login of its own on a tenant of its own (so limits do not meet). */
async function person(options: { email?: string } = {}): Promise<Owner & { host: string; login: string }> {
  const { tenantId, host } = await makeTenant('en');
  const owner = await makeOwner({ tenantId });
  const login = `reseller${++counter}`;
  const set = await admin('user', 'set-password', '--user', owner.user.userId, '--password', PASSWORD, '--login', login, ...(options.email ? ['--email', options.email] : []));
  expect(set.code).toBe(0);
  return { ...owner, host, login };
}

const session = (host: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => api.request('POST', '/api/user/session', { headers: { Host: host, 'X-Lang': 'en', ...headers }, json: body });

/** The cookie's value from a Set-Cookie header (`console_session=<v>; …`). */
function cookieOf(res: ApiResponse): string {
  const match = /console_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '');
  if (!match) throw new Error(`no console_session cookie in ${JSON.stringify(res.body)}`);
  return match[1]!;
}

async function signedIn(p: { host: string; login: string }, extra: Record<string, unknown> = {}) {
  const res = await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD, ...extra });
  expect(res.body).toMatchObject({ code: 1 });
  const data = res.body.data as { csrf_token: string; session_id: string };
  return { cookie: cookieOf(res), csrf: data.csrf_token, sessionId: data.session_id, res };
}

const asSession = (host: string, cookie: string, csrf?: string) => ({ Host: host, 'X-Lang': 'en', Cookie: `console_session=${cookie}`, ...(csrf !== undefined ? { 'X-CSRF-Token': csrf } : {}) });

test('signing in with a password sets the HttpOnly, Secure, SameSite=Strict cookie; GET answers the same session; sign-out ends it', async () => {
  const p = await person({ email: 'Boss@Example.com' });
  const { cookie, csrf, sessionId, res } = await signedIn(p);
  expect(res.headers.get('set-cookie')).toMatch(/^console_session=[A-Za-z0-9_-]{43}; HttpOnly; Secure; SameSite=Strict; Path=\/; Max-Age=604800$/);
  expect(res.body.data).toEqual({
    session_id: sessionId,
    csrf_token: csrf,
    expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    absolute_expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    user: { user_id: p.user.userId, name: 'owner', login: p.login, email: 'Boss@Example.com', totp_enabled: false },
  });
  // The e-mail signs in too, in any case.
  expect((await session(p.host, { action: 'sign_in', login: 'boss@example.COM', password: PASSWORD })).body.code).toBe(1);

  const current = await api.request('GET', '/api/user/session', { headers: asSession(p.host, cookie) });
  expect(current.body).toMatchObject({ code: 1, data: { session_id: sessionId, csrf_token: csrf, user: { user_id: p.user.userId } } });

  // Sign-out is a write: without the CSRF token it is refused and the session lives on.
  expect((await session(p.host, { action: 'sign_out' }, asSession(p.host, cookie)))).toMatchObject({ status: 403, body: { code: 403, data: { error: 'csrf_invalid' } } });
  expect((await api.request('GET', '/api/user/session', { headers: asSession(p.host, cookie) })).body.code).toBe(1);
  const out = await session(p.host, { action: 'sign_out' }, asSession(p.host, cookie, csrf));
  expect(out.body).toMatchObject({ code: 1, data: { signed_out: true } });
  expect(out.headers.get('set-cookie')).toMatch(/^console_session=; .*Max-Age=0$/);
  const after = await api.request('GET', '/api/user/session', { headers: asSession(p.host, cookie) });
  expect(after).toMatchObject({ status: 401, body: { code: 10, msg: 'Session ended: sign in again', data: { error: 'session_expired' } } });
  // And on the API's routes.
  expect((await api.request('GET', '/api/appstore/manage/sources', { headers: asSession(p.host, cookie) })).body).toMatchObject({ code: 10, data: { error: 'session_expired' } });
});

test('a wrong password and an unknown login get one answer; so does a session on another tenant', async () => {
  const p = await person();
  const answer = (res: ApiResponse) => [res.status, res.body.code, res.body.msg, res.body.data];
  const wrong = await session(p.host, { action: 'sign_in', login: p.login, password: 'not the password' });
  const unknown = await session(p.host, { action: 'sign_in', login: 'nobody-here', password: 'not the password' });
  expect(answer(wrong)).toEqual([401, 10, 'Wrong login or password', { error: 'sign_in_failed' }]);
  expect(answer(unknown)).toEqual(answer(wrong));
  expect(wrong.headers.get('set-cookie')).toBeNull();
  // The login is the tenant's: on another tenant's host it is unknown.
  const other = await makeTenant('en');
  expect(answer(await session(other.host, { action: 'sign_in', login: p.login, password: PASSWORD }))).toEqual(answer(wrong));
  const { cookie } = await signedIn(p);
  expect((await api.request('GET', '/api/user/session', { headers: asSession(other.host, cookie) })).body).toMatchObject({ code: 10, data: { error: 'session_expired' } });
  // Bad input is a localized 40002 naming the field, and signs nobody in.
  expect((await session(p.host, { action: 'sign_in', login: p.login })).body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: ['password'] } });
  expect((await session(p.host, { action: 'fly' })).body).toMatchObject({ code: 40002, data: { fields: ['action'] } });
  expect((await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD, extra: 1 })).body).toMatchObject({ code: 40002, data: { error: 'unknown_field', fields: ['extra'] } });
  expect((await session(p.host, { action: 'sign_in', login: p.login, password: 'x' }, { 'X-Lang': 'ar' })).body.msg).toBe('اسم الدخول أو كلمة المرور غير صحيحة');
});

test('the session is the caller on bearer and token routes; writes need its CSRF token, and a refused write changes nothing', async () => {
  const p = await person();
  const { cookie, csrf } = await signedIn(p);
  const sourcePath = `/api/appstore/manage/sources/${p.source.source_id}`;

  const listed = await api.request('GET', '/api/appstore/manage/sources', { headers: asSession(p.host, cookie) });
  expect(listed.body).toMatchObject({ code: 1 });
  expect(JSON.stringify(listed.body.data)).toContain(p.source.source_id);
  // A token route (the `token` parameter's place) takes the session too.
  expect((await api.request('GET', '/api/user/balance', { headers: asSession(p.host, cookie) })).body).toMatchObject({ code: 1, data: { balance: 0 } });

  for (const headers of [asSession(p.host, cookie), asSession(p.host, cookie, 'wrong-token'), asSession(p.host, cookie, `${csrf}x`)]) {
    const refused = await api.request('PATCH', sourcePath, { headers, json: { name: 'Changed' } });
    expect(refused).toMatchObject({ status: 403, body: { code: 403, msg: 'Missing or wrong CSRF token; nothing changed', data: { error: 'csrf_invalid' } } });
  }
  expect((await getSource(p.source.source_id))!.name).toBe('Fixture source');
  // A token route's write (the device status toggle is a POST here) is refused the same way, in its envelope.
  expect((await api.request('POST', '/api/user/balance', { headers: asSession(p.host, cookie), json: {} })).body).toMatchObject({ code: 403, data: { error: 'csrf_invalid' } });

  const changed = await api.request('PATCH', sourcePath, { headers: asSession(p.host, cookie, csrf), json: { name: 'Changed' } });
  expect(changed.body).toMatchObject({ code: 1 });
  expect((await getSource(p.source.source_id))!.name).toBe('Changed');
  // A script's token needs no CSRF token, and wins over a cookie sent beside it.
  const byToken = await api.request('PATCH', sourcePath, { headers: { ...asSession(p.host, cookie), ...p.bearer }, json: { name: 'By token' } });
  expect(byToken.body).toMatchObject({ code: 1 });
});

test('the device routes that change things on a GET (status, the adds) need the CSRF token on a GET too; reads do not', async () => {
  const p = await person();
  const device = await storedDevice(p.user);
  const { cookie, csrf } = await signedIn(p);
  expect((await api.request('GET', `/api/device/info?kid=${device.kid}`, { headers: asSession(p.host, cookie) })).body).toMatchObject({ code: 1, data: { kid: device.kid } });
  const disable = `/api/device/status?kid=${device.kid}&action=disable`;
  expect(await api.request('GET', disable, { headers: asSession(p.host, cookie) })).toMatchObject({ status: 403, body: { code: 403, data: { error: 'csrf_invalid' } } });
  expect((await getDevice(device.kid))!.enabled).toBe(true);
  expect((await api.request('GET', '/api/adddevice/v2?udid=00008030-001A2B3C4D5E6F70', { headers: asSession(p.host, cookie) }))).toMatchObject({ status: 403, body: { code: 0, data: { error: 'csrf_invalid' } } });
  expect((await api.request('GET', disable, { headers: asSession(p.host, cookie, csrf) })).body).toMatchObject({ code: 1 });
  expect((await getDevice(device.kid))!.enabled).toBe(false);
});

test("another reseller's source id gets the same refusal with a session as with a token (40001)", async () => {
  const p = await person();
  const other = await makeOwner({ tenantId: p.user.tenantId });
  const { cookie, csrf } = await signedIn(p);
  const path = `/api/appstore/manage/sources/${other.source.source_id}`;
  const answer = (res: ApiResponse) => [res.status, res.body.code, res.body.msg, res.body.data];
  const byToken = await api.request('PATCH', path, { headers: { Host: p.host, 'X-Lang': 'en', ...p.bearer }, json: { name: 'Mine now' } });
  const bySession = await api.request('PATCH', path, { headers: asSession(p.host, cookie, csrf), json: { name: 'Mine now' } });
  expect(byToken.body.code).toBe(40001);
  expect(answer(bySession)).toEqual(answer(byToken));
  expect(answer(await api.request('GET', path, { headers: asSession(p.host, cookie) }))).toEqual(answer(await api.request('GET', path, { headers: { Host: p.host, 'X-Lang': 'en', ...p.bearer } })));
  expect((await getSource(other.source.source_id))!.name).toBe('Fixture source');
});

test('a session ends 12 hours after its last use, and 7 days after sign-in however it is used', async () => {
  const p = await person();
  const start = Date.now();
  const at = (seconds: number) => setClock(() => start + seconds * 1000);
  let restore = at(0);
  try {
    const { cookie } = await signedIn(p);
    const alive = async () => (await api.request('GET', '/api/user/session', { headers: asSession(p.host, cookie) })).body;
    restore = at(11 * 3600);
    expect((await alive()).code).toBe(1);
    // Used at 11 h, so alive at 22 h; every 11 hours up to the 7th day.
    for (let h = 22; h < 7 * 24; h += 11) {
      restore = at(h * 3600);
      expect(await alive()).toMatchObject({ code: 1 });
    }
    restore = at(7 * 86_400 + 1);
    expect(await alive()).toMatchObject({ code: 10, data: { error: 'session_expired' } });

    const second = await signedIn(p);
    restore = at(7 * 86_400 + 1 + 12 * 3600 + 1);
    expect((await api.request('GET', '/api/user/session', { headers: asSession(p.host, second.cookie) })).body).toMatchObject({ code: 10, data: { error: 'session_expired' } });
  } finally {
    restore();
  }
});

test('with TOTP on, sign-in asks for the code; a wrong or replayed code fails as a wrong password does', async () => {
  const p = await person();
  const { cookie, csrf } = await signedIn(p);
  const setup = await session(p.host, { action: 'totp_setup' }, asSession(p.host, cookie, csrf));
  expect(setup.body).toMatchObject({ code: 1, data: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauth_uri: expect.stringMatching(/^otpauth:\/\/totp\//) } });
  const totp = new TOTP({ secret: Secret.fromBase32((setup.body.data as { secret: string }).secret), digits: 6, period: 30 });
  // Not active until confirmed.
  expect((await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD })).body.code).toBe(1);
  expect((await session(p.host, { action: 'totp_confirm', code: '000000' === totp.generate() ? '111111' : '000000' }, asSession(p.host, cookie, csrf))).body).toMatchObject({ code: 40002, data: { error: 'totp_invalid', fields: ['code'] } });
  // The confirming code is spent: the first sign-in needs the next step's code.
  const now = Date.now();
  expect((await session(p.host, { action: 'totp_confirm', code: totp.generate({ timestamp: now }) }, asSession(p.host, cookie, csrf))).body).toMatchObject({ code: 1, data: { user: { totp_enabled: true } } });

  const noCode = await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD });
  expect(noCode).toMatchObject({ status: 400, body: { code: 40002, msg: 'Enter the 6-digit code from your authenticator app', data: { error: 'totp_required', fields: ['totp'] } } });
  expect(noCode.headers.get('set-cookie')).toBeNull();
  const failed = { status: 401, body: { code: 10, data: { error: 'sign_in_failed' } } };
  expect(await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD, totp: totp.generate({ timestamp: now - 5 * 60_000 }) })).toMatchObject(failed);
  expect(await session(p.host, { action: 'sign_in', login: p.login, password: 'wrong password', totp: totp.generate({ timestamp: now + 30_000 }) })).toMatchObject(failed);
  // The confirming code again: replayed.
  expect(await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD, totp: totp.generate({ timestamp: now }) })).toMatchObject(failed);
  const next = totp.generate({ timestamp: now + 30_000 });
  const withCode = await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD, totp: next });
  expect(withCode.body).toMatchObject({ code: 1, data: { user: { totp_enabled: true } } });
  expect(await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD, totp: next })).toMatchObject(failed);

  // Four failures so far: the operator clears them, so the next wrong password is not the locking fifth.
  await admin('user', 'unlock', '--user', p.user.userId);
  // Turning it off takes the password.
  expect((await session(p.host, { action: 'totp_disable', password: 'nope nope nope' }, asSession(p.host, cookie, csrf))).body).toMatchObject({ code: 40002, data: { error: 'password_incorrect', fields: ['password'] } });
  expect((await session(p.host, { action: 'totp_disable', password: PASSWORD }, asSession(p.host, cookie, csrf))).body).toMatchObject({ code: 1, data: { user: { totp_enabled: false } } });
  expect((await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD })).body.code).toBe(1);
});

test('5 failures lock the account until the quarter hour ends, a right password included; the operator clears it', async () => {
  const p = await person();
  const start = (Math.floor(Date.now() / 900_000) + 1) * 900_000 + 1000;
  const restore = setClock(() => start);
  try {
    const until = new Date(start - 1000 + 900_000).toISOString();
    for (let i = 1; i <= 4; i++) expect((await session(p.host, { action: 'sign_in', login: p.login, password: `wrong ${i} wrong` })).body.data).toEqual({ error: 'sign_in_failed' });
    const fifth = await session(p.host, { action: 'sign_in', login: p.login, password: 'wrong 5 wrong' });
    expect(fifth).toMatchObject({ status: 429, body: { code: 429, msg: `Too many failed sign-ins: the account is locked until ${until}`, data: { error: 'account_locked', locked_until: until } } });
    const right = await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD });
    expect(right).toMatchObject({ status: 429, body: { data: { error: 'account_locked', locked_until: until } } });
    expect(right.headers.get('set-cookie')).toBeNull();
    // An unknown login locks the same way, so a lock tells nothing about which logins exist.
    for (let i = 1; i <= 5; i++) await session(p.host, { action: 'sign_in', login: 'nobody-at-all', password: `wrong ${i} wrong` });
    expect((await session(p.host, { action: 'sign_in', login: 'nobody-at-all', password: 'x' })).body.data).toMatchObject({ error: 'account_locked', locked_until: until });

    expect((await admin('user', 'unlock', '--user', p.user.userId)).json).toEqual({ user_id: p.user.userId, cleared: true });
    expect((await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD })).body.code).toBe(1);
  } finally {
    restore();
    await resetCounter(`console-sign-in#ip:127.0.0.1#${minuteWindow(start).id}`);
  }
});

test('concurrent wrong passwords: exactly 5 are checked, the rest find the account locked', () =>
  atProductCost(async () => {
    const p = await person();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => session(p.host, { action: 'sign_in', login: p.login, password: `wrong ${i} wrong` })));
    const errors = answers.map((a) => (a.body.data as { error: string }).error);
    // Four plain failures, and the fifth failure says locked like the 7 refused: 5 ran, 7 never did.
    expect(errors.filter((e) => e === 'sign_in_failed')).toHaveLength(4);
    expect(errors.filter((e) => e === 'account_locked')).toHaveLength(8);
    await admin('user', 'unlock', '--user', p.user.userId);
  }));

test('20 failed attempts a minute from one IP: then too_many_attempts, whatever the login', async () => {
  const p = await person();
  const start = (Math.floor(Date.now() / 60_000) + 1) * 60_000 + 500;
  const restore = setClock(() => start);
  const bucket = `console-sign-in#ip:127.0.0.1#${minuteWindow(start).id}`;
  try {
    // 20 logins, one failure each (no account reaches its own limit).
    for (let i = 0; i < 20; i++) expect((await session(p.host, { action: 'sign_in', login: `guess${i}`, password: 'guess guess' })).body.data).toEqual({ error: 'sign_in_failed' });
    const refused = await session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD });
    expect(refused).toMatchObject({ status: 429, body: { code: 429, data: { error: 'too_many_attempts', limit: 20, retry_after: 60 } } });
    expect(refused.body.msg).toBe('Too many failed attempts from this address, retry in 60 seconds');
  } finally {
    restore();
    await resetCounter(bucket);
  }
});

test('the session list shows where each session is used; revoking one ends it', async () => {
  const p = await person();
  const a = await signedIn(p);
  const b = await signedIn(p);
  const list = await session(p.host, { action: 'list' }, { ...asSession(p.host, a.cookie, a.csrf), 'User-Agent': 'Console test' });
  expect(list.body).toMatchObject({ code: 1 });
  const items = (list.body.data as { items: Array<Record<string, unknown>> }).items;
  // Newest first (these two began in the same second: either order).
  expect(items.map((s) => [s.session_id, s.current]).sort()).toEqual(
    [
      [b.sessionId, false],
      [a.sessionId, true],
    ].sort(),
  );
  expect(items[0]).toMatchObject({ ip: '127.0.0.1', created_at: expect.any(String), last_seen_at: expect.any(String) });
  // Another user's session id is not one's own.
  const q = await person();
  const c = await signedIn(q);
  expect((await session(p.host, { action: 'revoke', session_id: c.sessionId }, asSession(p.host, a.cookie, a.csrf))).body).toMatchObject({ code: 40002, data: { error: 'session_not_found' } });
  expect((await api.request('GET', '/api/user/session', { headers: asSession(q.host, c.cookie) })).body.code).toBe(1);

  expect((await session(p.host, { action: 'revoke', session_id: b.sessionId }, asSession(p.host, a.cookie, a.csrf))).body).toMatchObject({ code: 1, data: { revoked: b.sessionId } });
  expect((await api.request('GET', '/api/user/session', { headers: asSession(p.host, b.cookie) })).body).toMatchObject({ code: 10, data: { error: 'session_expired' } });
  expect((await api.request('GET', '/api/user/session', { headers: asSession(p.host, a.cookie) })).body.code).toBe(1);
});

test('rotating the API token from a session answers the new one once; the old one stops working', async () => {
  const p = await person();
  const { cookie, csrf } = await signedIn(p);
  expect((await session(p.host, { action: 'rotate_token', password: 'not it at all' }, asSession(p.host, cookie, csrf))).body).toMatchObject({ code: 40002, data: { error: 'password_incorrect' } });
  const rotated = await session(p.host, { action: 'rotate_token', password: PASSWORD }, asSession(p.host, cookie, csrf));
  expect(rotated.body).toMatchObject({ code: 1, data: { token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });
  const token = (rotated.body.data as { token: string }).token;
  const sources = (bearer: string) => api.request('GET', '/api/appstore/manage/sources', { headers: { Host: p.host, Authorization: `Bearer ${bearer}` } });
  expect((await sources(p.token)).body).toMatchObject({ code: 10, data: { error: 'token_invalid' } });
  expect((await sources(token)).body.code).toBe(1);
  // The session is not the token: it lives on.
  expect((await api.request('GET', '/api/user/session', { headers: asSession(p.host, cookie) })).body.code).toBe(1);
});

test('an invitation link sets the password and signs in, once; the CLI prints it', async () => {
  const { tenantId, host } = await makeTenant('en');
  const owner = await makeOwner({ tenantId });
  const invited = await admin('user', 'invite', '--user', owner.user.userId, '--login', 'invited-one', '--email', 'invited@example.com');
  expect(invited.code).toBe(0);
  expect(invited.json).toMatchObject({ user_id: owner.user.userId, login: 'invited-one', url: expect.stringMatching(new RegExp(`^https://${host.replace(/\./g, '\\.')}/console/#/invite/[A-Za-z0-9_-]{43}$`)) });
  const invite = String(invited.json.url).split('/invite/')[1]!;
  // Before it is accepted there is no password to sign in with.
  expect((await session(host, { action: 'sign_in', login: 'invited-one', password: PASSWORD })).body.data).toEqual({ error: 'sign_in_failed' });
  expect((await session(host, { action: 'accept_invite', invite, password: 'short' })).body).toMatchObject({ code: 40002, data: { fields: ['password'] } });
  const accepted = await session(host, { action: 'accept_invite', invite, password: PASSWORD });
  expect(accepted.body).toMatchObject({ code: 1, data: { user: { user_id: owner.user.userId, login: 'invited-one', email: 'invited@example.com' } } });
  expect(cookieOf(accepted)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect((await session(host, { action: 'accept_invite', invite, password: 'another password!' })).body).toMatchObject({ code: 40002, data: { error: 'invite_invalid', fields: ['invite'] } });
  expect((await session(host, { action: 'sign_in', login: 'invited@example.com', password: PASSWORD })).body.code).toBe(1);
  expect((await session(host, { action: 'sign_in', login: 'invited-one', password: 'another password!' })).body.data).toEqual({ error: 'sign_in_failed' });
});

test('the operator CLI: set-password ends sessions and keeps logins unique; invite needs an address; --help explains', async () => {
  const p = await person();
  const { cookie } = await signedIn(p);
  const reset = await admin('user', 'set-password', '--user', p.user.userId, '--password', 'a brand new password');
  expect(reset.json).toEqual({ user_id: p.user.userId, login: p.login, sessions_ended: 1 });
  expect((await api.request('GET', '/api/user/session', { headers: asSession(p.host, cookie) })).body.code).toBe(10);
  expect((await session(p.host, { action: 'sign_in', login: p.login, password: 'a brand new password' })).body.code).toBe(1);

  const other = await makeOwner({ tenantId: p.user.tenantId });
  const taken = await admin('user', 'set-password', '--user', other.user.userId, '--password', PASSWORD, '--login', p.login.toUpperCase());
  expect(taken.code).toBe(1);
  expect(taken.stderr).toMatch(/another user of the tenant signs in as/);
  expect((await admin('user', 'set-password', '--user', other.user.userId, '--password', 'short')).stderr).toMatch(/--password: must be at least 10 characters/);
  // The password on standard input stays out of the shell's history; the line break `echo` adds is not part of it.
  const piped = await adminWithInput('a piped password 1\n', 'user', 'set-password', '--user', p.user.userId, '--password-stdin');
  // The sign-in just above made the one session this reset ends.
  expect(piped.json).toEqual({ user_id: p.user.userId, login: p.login, sessions_ended: 1 });
  expect((await session(p.host, { action: 'sign_in', login: p.login, password: 'a piped password 1' })).body.code).toBe(1);
  expect((await session(p.host, { action: 'sign_in', login: p.login, password: 'a brand new password' })).body.data).toEqual({ error: 'sign_in_failed' });
  expect((await adminWithInput('short\n', 'user', 'set-password', '--user', p.user.userId, '--password-stdin')).stderr).toMatch(/--password: must be at least 10 characters/);
  expect((await adminWithInput('x', 'user', 'set-password', '--user', p.user.userId, '--password-stdin', '--password', PASSWORD)).stderr).toMatch(/not both/);
  // The default tenant has no domain of its own: the link's address must be given.
  const local = await makeOwner();
  expect((await admin('user', 'invite', '--user', local.user.userId, '--login', `local${++counter}`)).stderr).toMatch(/pass --base-url/);
  const withBase = await admin('user', 'invite', '--user', local.user.userId, '--login', `local${counter}`, '--base-url', 'http://127.0.0.1:3000/');
  expect(String(withBase.json.url)).toMatch(/^http:\/\/127\.0\.0\.1:3000\/console\/#\/invite\//);
  const help = await admin('user', 'set-password', '--help');
  expect(help.code).toBe(0);
  expect(help.stderr).toMatch(/^Usage: npm run --silent admin -- user set-password --user <user_id> --password/);
});

test('races: one invitation accepted 6 times at once signs in once; one TOTP code sent 4 times at once signs in once', () =>
  atProductCost(async () => {
    const { tenantId, host } = await makeTenant('en');
    const owner = await makeOwner({ tenantId });
    const invite = String((await admin('user', 'invite', '--user', owner.user.userId, '--login', `race${++counter}`)).json.url).split('/invite/')[1]!;
    const accepts = await Promise.all(Array.from({ length: 6 }, (_, i) => session(host, { action: 'accept_invite', invite, password: `race password ${i}` })));
    expect(accepts.map((a) => a.body.code).sort()).toEqual([1, 40002, 40002, 40002, 40002, 40002]);
    const winner = accepts.findIndex((a) => a.body.code === 1);
    expect((await session(host, { action: 'sign_in', login: `race${counter}`, password: `race password ${winner}` })).body.code).toBe(1);

    const p = await person();
    const { cookie, csrf } = await signedIn(p);
    const secret = ((await session(p.host, { action: 'totp_setup' }, asSession(p.host, cookie, csrf))).body.data as { secret: string }).secret;
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    const now = Date.now();
    expect((await session(p.host, { action: 'totp_confirm', code: totp.generate({ timestamp: now - 30_000 }) }, asSession(p.host, cookie, csrf))).body.code).toBe(1);
    const code = totp.generate({ timestamp: now });
    // Four (more would meet the account's limit of 5 failures among themselves).
    const tries = await Promise.all(Array.from({ length: 4 }, () => session(p.host, { action: 'sign_in', login: p.login, password: PASSWORD, totp: code })));
    expect(tries.map((t) => t.body.code).sort()).toEqual([1, 10, 10, 10]);
    await admin('user', 'unlock', '--user', p.user.userId);
  }));
