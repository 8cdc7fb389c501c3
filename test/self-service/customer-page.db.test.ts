/**
 * The customer's own page, over HTTP with the device simulator: the capture's one-time ticket becomes a
 * 30-minute session bound to that UDID and tenant; the page lists the UDID's certificates on the tenant (all
 * owners); the zip download holds a `.p12` openssl opens with the password beside it and a profile naming the
 * UDID. A typed UDID, a spent or expired ticket, an expired session or another tenant's host opens nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { add, newUser, udid25, type Testbed } from '../support/add-device-testbed';
import { makeTenant, type Owner, moveDeviceZt } from '../support/fixtures';
import type { DeviceCa } from '../../infra/device-simulator/device-pki';
import { exchangeTicket, issueTicket } from '../../shared/domain/self-service/proof';
import type { UdidCapture } from '../../shared/records/udid-capture';
import { call, capture, customerWorld, enter } from './customer-support';
import { languages } from '../../shared/i18n/languages';

jest.setTimeout(120_000);

let bed: Testbed;
let ca: DeviceCa;
let owner: Owner;
let url: string;
beforeAll(async () => {
  ({ bed, ca, owner, url } = await customerWorld());
}, 180_000);
afterAll(() => bed.close());

const sourceProfile = () => `${url}/api/rjy/${owner.source.source_id}/udid.mobileconfig`;
const tenantProfile = () => `${url}/api/udid/profile?return=${encodeURIComponent(`${url}/api/customer`)}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function certificateOf(token: string, udid: string, warranty = '1'): Promise<string> {
  const res = await add(bed.api, { token, udid, warranty });
  expect([res.body.code, res.body.data?.error]).toEqual([1, undefined]);
  return String(res.body.data!.id);
}

function captureRecord(udid: string): UdidCapture {
  return { capture_id: 'cap_t', tenant_id: 'default', source_id: '', owner_id: '', udid, product: 'iPhone15,2', version: '17.4', serial: '', device_name: 'iPhone', return_url: `${url}/api/customer`, captured_at: nowSeconds(), verified: true };
}

test('the capture’s ticket is spent by the first open and becomes a 30-minute HttpOnly, SameSite=Strict session for that UDID', async () => {
  const udid = udid25();
  const location = await capture(ca, sourceProfile(), udid);
  const st = new URL(location).searchParams.get('st');
  expect(st).toMatch(/^[A-Za-z0-9_-]{43}$/);

  const first = await call(location);
  expect(first.status).toBe(303);
  expect(first.headers.location).toBe(`${url}/api/rjy/${owner.source.source_id}/install`);
  // Plain http locally: no Secure (it is added whenever the page is served over https).
  expect(String(first.headers['set-cookie'])).toMatch(/^customer_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1800; HttpOnly; SameSite=Strict$/);
  const cookie = String(first.headers['set-cookie']).split(';')[0]!;

  const page = await call(`${url}/api/rjy/${owner.source.source_id}/install`, { cookie });
  expect(page.status).toBe(200);
  expect(page.text).toContain(udid);
  expect(page.text).toContain('No certificate for this device yet');
  expect(page.headers['content-security-policy']).toContain("form-action 'self'");

  // The same URL again (shared, replayed, reloaded): the ticket is spent; nothing of the device.
  const replay = await call(location);
  expect(replay.status).toBe(200);
  expect(replay.text).toContain('This link was already used or is not valid');
  expect(replay.text).not.toContain(udid);
  expect(replay.headers['set-cookie']).toBeUndefined();

  // Without the cookie, or with it on another tenant's host, the page knows no device.
  expect((await call(`${url}/api/rjy/${owner.source.source_id}/install`)).text).not.toContain(udid);
  const other = await makeTenant();
  const foreign = await call(`${url}/api/customer`, { cookie, host: other.host });
  expect(foreign.status).toBe(200);
  expect(foreign.text).not.toContain(udid);
  // The session works on the tenant's page too (one tenant, any of its pages).
  expect((await call(`${url}/api/customer`, { cookie })).text).toContain(udid);
});

test('a typed UDID proves nothing; an expired ticket and an expired session open nothing; bad tickets are refused', async () => {
  const udid = udid25();
  const kid = await certificateOf(owner.token, udid);
  // Typed: the UDID in the URL, with or without a kid.
  const typed = await call(`${url}/api/customer?udid=${udid}`);
  expect(typed.status).toBe(200);
  expect(typed.text).not.toContain(udid);
  const typedDownload = await call(`${url}/api/customer/download?udid=${udid}&kid=${kid}`);
  expect([typedDownload.status, typedDownload.headers['x-error']]).toEqual([401, 'session_required']);
  expect(typedDownload.text).toContain('This device is not proven here');

  // A ticket past its 10 minutes: a clear page saying to capture again, and it is spent.
  const stale = await issueTicket(captureRecord(udid), nowSeconds() - 601);
  const expired = await call(`${url}/api/customer?st=${stale}`);
  expect(expired.status).toBe(200);
  expect(expired.text).toContain('This link has expired (it lasts 10 minutes)');
  expect(expired.text).not.toContain(udid);
  expect(expired.headers['set-cookie']).toBeUndefined();
  expect(expired.text).toContain('Get my UDID');

  // A session opened 31 minutes ago is over.
  const old = await exchangeTicket(await issueTicket(captureRecord(udid), nowSeconds() - 1860), 'default', nowSeconds() - 1801);
  if (!('session' in old)) throw new Error('exchange refused');
  const cookie = `customer_session=${old.session}`;
  expect((await call(`${url}/api/customer`, { cookie })).text).not.toContain(udid);
  const late = await call(`${url}/api/customer/download?kid=${kid}`, { cookie });
  expect([late.status, late.headers['x-error']]).toEqual([401, 'session_required']);

  // Malformed tickets and cookies: 400 for the parameter, a forged cookie is no session.
  for (const st of ['abc', 'x'.repeat(44), '<script>']) {
    const bad = await call(`${url}/api/customer?st=${encodeURIComponent(st)}`);
    expect([st, bad.status, bad.headers['x-error']]).toEqual([st, 400, 'invalid_value']);
  }
  const forged = await call(`${url}/api/customer/download?kid=${kid}`, { cookie: `customer_session=${'A'.repeat(43)}` });
  expect(forged.status).toBe(401);
});

test('status lists the UDID’s certificates of every owner on the tenant, in the customer’s language, never an owner’s token', async () => {
  const udid = udid25();
  const other = await newUser();
  const mine = await certificateOf(owner.token, udid, '1');
  const theirs = await certificateOf(other.token, udid, '0');
  const { cookie } = await enter(await capture(ca, tenantProfile(), udid));

  let page = await call(`${url}/api/customer`, { cookie });
  const cards = [...page.text.matchAll(/data-kid="([^"]+)" data-state="([a-z]+)"/g)].map((m) => [m[1], m[2]]);
  expect(cards).toEqual([
    [theirs, 'normal'],
    [mine, 'normal'],
  ]);
  expect(page.text).toContain('Active');
  expect(page.text).toMatch(/Membership until \w+ \d+, \d{4}/);
  for (const secret of [owner.token, other.token, owner.user.userId, other.userId]) expect(page.text).not.toContain(secret);

  // Revoked inside the warranty (tier 1: 40 days) offers the free re-issue; a tier-0 certificate does not.
  await Promise.all([moveDeviceZt(mine, 'revoked', 'normal'), moveDeviceZt(theirs, 'expired', 'normal')]);
  page = await call(`${url}/api/customer`, { cookie });
  expect([...page.text.matchAll(/data-kid="([^"]+)" data-state="([a-z]+)"/g)].map((m) => [m[1], m[2]])).toEqual([
    [theirs, 'expired'],
    [mine, 'revoked'],
  ]);
  expect(page.text).toContain('Re-issue free (warranty)');
  expect(page.text.match(/name="kid" value="([^"]+)"/g)).toEqual([`name="kid" value="${mine}"`]);
  expect(page.text).not.toContain('/api/customer/download');

  // In Russian and in Arabic, right to left.
  const ru = await call(`${url}/api/customer`, { cookie, lang: 'ru' });
  expect(ru.text).toContain('Отозван');
  expect(ru.text).toContain('Истёк');
  const ar = await call(`${url}/api/customer`, { cookie, lang: 'ar' });
  expect(ar.text).toContain('dir="rtl"');
  expect(ar.text).toContain('ملغاة');
});

test('download: a zip named for the device with certificate.p12, profile.mobileprovision and password.txt; openssl opens the .p12 with it', async () => {
  const udid = udid25();
  const kid = await certificateOf(owner.token, udid);
  const elsewhere = await certificateOf(owner.token, udid25());
  const { cookie } = await enter(await capture(ca, sourceProfile(), udid));

  const page = await call(`${url}/api/rjy/${owner.source.source_id}/install`, { cookie });
  expect(page.text).toContain(`/api/customer/download?kid=${kid}`);
  const res = await call(`${url}/api/customer/download?kid=${kid}`, { cookie });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="[A-Za-z0-9_-]+-${kid}\\.zip"$`));

  const dir = mkdtempSync(join(tmpdir(), 'customer-zip-'));
  writeFileSync(join(dir, 'bundle.zip'), res.body);
  execFileSync('unzip', ['-q', 'bundle.zip', '-d', 'out'], { cwd: dir });
  expect(readdirSync(join(dir, 'out')).sort()).toEqual(['certificate.p12', 'password.txt', 'profile.mobileprovision']);
  const passwordText = readFileSync(join(dir, 'out', 'password.txt'), 'utf8');
  expect(passwordText).toBe('Password of certificate.p12: 1\r\n');
  const password = /: (.*)\r\n$/.exec(passwordText)![1]!;
  const opened = execFileSync('openssl', ['pkcs12', '-in', join(dir, 'out', 'certificate.p12'), '-passin', `pass:${password}`, '-nokeys'], { encoding: 'utf8' });
  expect(opened).toContain('-----BEGIN CERTIFICATE-----');
  expect(() => execFileSync('openssl', ['pkcs12', '-in', join(dir, 'out', 'certificate.p12'), '-passin', 'pass:wrong', '-nokeys'], { stdio: 'pipe' })).toThrow();
  expect(readFileSync(join(dir, 'out', 'profile.mobileprovision')).toString('latin1')).toContain(udid);

  // Another UDID's certificate, a revoked one, a bad kid: refused by name.
  const foreign = await call(`${url}/api/customer/download?kid=${elsewhere}`, { cookie });
  expect([foreign.status, foreign.headers['x-error']]).toEqual([403, 'certificate_not_found']);
  await moveDeviceZt(kid, 'revoked', 'normal');
  const revoked = await call(`${url}/api/customer/download?kid=${kid}`, { cookie });
  expect([revoked.status, revoked.headers['x-error']]).toEqual([409, 'certificate_not_ready']);
  for (const bad of ['', 'a b', '../x', 'k'.repeat(129)]) {
    const res2 = await call(`${url}/api/customer/download?kid=${encodeURIComponent(bad)}`, { cookie });
    expect([bad, res2.status, res2.headers['x-error']]).toEqual([bad, 400, 'invalid_value']);
  }
});

test('issue 39: a certificate its owner disabled shows as disabled, in every language, and does not download; enabled again, it does', async () => {
  const udid = udid25();
  const kid = await certificateOf(owner.token, udid);
  const { cookie } = await enter(await capture(ca, tenantProfile(), udid));
  const status = (action: string) => bed.api.request('GET', `/api/device/status?token=${owner.token}&kid=${kid}&action=${action}`);
  expect((await status('disable')).body.code).toBe(1);
  const labels = new Set<string>();
  for (const lang of languages) {
    const page = await call(`${url}/api/customer`, { cookie, lang });
    expect(page.text).toContain(`data-kid="${kid}" data-state="disabled"`);
    expect(page.text).not.toContain(`/api/customer/download?kid=${kid}`);
    labels.add(/class="state disabled">([^<]+)</.exec(page.text)![1]!);
  }
  expect(labels.size).toBe(languages.length);
  expect((await call(`${url}/api/customer`, { cookie })).text).toContain('Disabled by the seller');
  const refused = await call(`${url}/api/customer/download?kid=${kid}`, { cookie, lang: 'vi' });
  expect([refused.status, refused.headers['x-error']]).toEqual([409, 'certificate_disabled']);
  expect(refused.text).toContain('Người bán đã vô hiệu hóa chứng chỉ này');
  expect((await status('enable')).body.code).toBe(1);
  const allowed = await call(`${url}/api/customer/download?kid=${kid}`, { cookie });
  expect(allowed.status).toBe(200);
});
