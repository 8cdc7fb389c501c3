/**
 * Renewing a connected account's certificate as a job, on DynamoDB Local and the App Store Connect simulator:
 * the request answers 202 once the new certificate exists, the reservation worker's pass gives each device a
 * new profile (listing its UDID) and a .p12 openssl opens, with the progress on the account and an
 * `account.renewal` event at the end. Apple down half-way and a request that died are resumed or undone; no
 * slot is spent, nobody is charged, the ledger adds up; a second renewal while one runs is refused in every
 * language. The job's time is its `now`, never waited for.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { decodeProvisioningProfile } from '../../shared/apple/profile-reader';
import { readP12 } from '../../shared/apple/p12-reader';
import { beginRenewal, getAccount } from '../../shared/db/repositories/account-repository';
import { getDevice } from '../../shared/db/repositories/device-repository';
import { getReservation } from '../../shared/db/repositories/reservation-repository';
import { ascClientFor } from '../../shared/domain/accounts/account-access';
import { runAccountRenewals } from '../../shared/domain/accounts/renewal-job';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { newSigningRequest } from '../../shared/domain/accounts/signing-identity';
import { seal } from '../../shared/secrets/envelope-encryption';
import { languages as LANGUAGES } from '../../shared/i18n/languages';
import { add, balanceOf, newUser, udid25, type Testbed } from '../support/add-device-testbed';
import { bearer, CONNECTION_TIMEOUT_MS, keyOf, startConnectionTestbed, type Json } from '../support/apple-account-connection';
import { expectLedgerAddsUp } from '../support/ledger';

let bed: Testbed;
jest.setTimeout(4 * CONNECTION_TIMEOUT_MS);

beforeAll(async () => {
  bed = await startConnectionTestbed();
});
afterAll(() => bed.close());

const nowS = () => Math.floor(Date.now() / 1000);
type Renewal = { renewal_id: string; state: string; done: number; total: number; skipped: number; finished_at: number | null; error?: string };
type AccountView = Json & { account_id: string; certificate: { id: string; expires_at: number }; renewal: Renewal | null; slots: Json };

async function connected(options: { certificateLimit?: number } = {}) {
  const user = await newUser();
  const team = await bed.sim.createTeam({ mode: 'instant', ...options });
  const res = await bed.api.request('POST', '/api/user/apple-accounts', { headers: bearer(user.token), json: keyOf(team) });
  expect(JSON.stringify(res.body)).toContain('"code":1,');
  return { ...user, team, account: res.body.data as AccountView };
}
const act = (token: string, accountId: string, body: Json, lang = 'en') => bed.api.request('POST', '/api/user/apple-accounts', { headers: bearer(token, lang), json: { account_id: accountId, ...body } });
async function show(token: string, accountId: string): Promise<AccountView> {
  const res = await bed.api.request('GET', `/api/user/apple-accounts?account_id=${accountId}`, { headers: bearer(token) });
  expect(res.body).toMatchObject({ code: 1 });
  return res.body.data as AccountView;
}
async function renewalEvents(token: string): Promise<Json[]> {
  const res = await bed.api.request('GET', '/api/user/events?limit=100', { headers: bearer(token) });
  return (res.body.data as { events: { type: string; data: Json }[] }).events.filter((e) => e.type === 'account.renewal').map((e) => e.data);
}
const activeCertificates = (teamId: string) => bed.sim.signingAssets(teamId).certificates.filter((c) => !c.revoked);

function opensWithOpenssl(p12Base64: string, password: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'p12-'));
  writeFileSync(join(dir, 'c.p12'), Buffer.from(p12Base64, 'base64'));
  return execFileSync('openssl', ['pkcs12', '-in', join(dir, 'c.p12'), '-passin', `pass:${password}`, '-nokeys'], { encoding: 'utf8' });
}
const p12Serial = (p12: string) => new X509Certificate(readP12(p12, '1').certificatePem).serialNumber.toUpperCase();
const profileSerials = (mobileprovision: string) => decodeProvisioningProfile(mobileprovision).developerCertificates.map((der) => new X509Certificate(Buffer.from(der, 'base64')).serialNumber.toUpperCase());

/** `count` type=1 adds, four at a time; their kids and UDIDs in order. */
async function addDevices(token: string, count: number): Promise<{ kid: string; udid: string }[]> {
  const devices: { kid: string; udid: string }[] = [];
  for (let i = 0; i < count; i += 4) {
    const batch = Array.from({ length: Math.min(4, count - i) }, () => udid25());
    const answers = await Promise.all(batch.map((udid) => add(bed.api, { token, udid, type: 1 })));
    answers.forEach((res, j) => {
      expect(res.body).toMatchObject({ code: 1 });
      devices.push({ kid: (res.body.data as { id: string }).id, udid: batch[j]! });
    });
  }
  return devices;
}

test('renewing an account with 40 devices answers at once; the job renews every device (a UDID-listing profile, a .p12 openssl opens) through Apple failing half-way, spending no slot and charging nobody', async () => {
  const { userId, token, team, account } = await connected();
  const devices = await addDevices(token, 40);
  const oldSerials = new Map<string, string>();
  for (const { kid } of devices) oldSerials.set(kid, p12Serial((await getDevice(kid))!.p12));
  const registered = bed.sim.registeredDevices(team.teamId).length;
  const balance = await balanceOf(userId);

  const started = await act(token, account.account_id, { action: 'renew_certificate' });
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ code: 1, data: { certificate: { id: account.certificate.id }, renewal: { state: 'running', done: 0, total: 40, finished_at: null } } });
  expect(started.body.msg).toContain('40 device(s)');
  const renewalId = (started.body.data as AccountView).renewal!.renewal_id;
  // The new certificate exists at Apple already; the account still signs with the previous one meanwhile.
  const made = activeCertificates(team.teamId).filter((c) => c.id !== team.certificateId && c.id !== account.certificate.id);
  expect(made).toHaveLength(1);
  const newSerial = made[0]!.serialNumber;

  // A second renewal while this one runs: refused, in every language, and nothing more made at Apple.
  for (const lang of LANGUAGES) {
    const again = await act(token, account.account_id, { action: 'renew_certificate' }, lang);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 40003, data: { error: 'apple_account_renewing', renewal_id: renewalId, done: 0, total: 40 } });
    expect(again.body.msg).toContain('0/40');
  }
  const messages = await Promise.all(LANGUAGES.map(async (lang) => (await act(token, account.account_id, { action: 'renew_certificate' }, lang)).body.msg));
  expect(new Set(messages).size).toBe(LANGUAGES.length);
  expect(activeCertificates(team.teamId)).toHaveLength(3);

  // Apple fails the first four profiles (three attempts each): the pass renews the other 36 and stops there.
  bed.sim.injectFault({ teamId: team.teamId, method: 'POST', path: '/v1/profiles', effect: 'unavailable', times: 12 });
  const first = await runAccountRenewals(nowS());
  expect(first).toMatchObject({ renewedDevices: 36, done: 0, failed: 0 });
  expect((await show(token, account.account_id)).renewal).toMatchObject({ state: 'running', done: 36, total: 40 });
  let stillOld = 0;
  for (const { kid } of devices) {
    const device = (await getDevice(kid))!;
    // Every device holds a matching .p12 and profile throughout: the previous pair until its new one is written.
    expect(profileSerials(device.mobileprovision)).toEqual([p12Serial(device.p12)]);
    if (p12Serial(device.p12) === oldSerials.get(kid)) stillOld++;
  }
  expect(stillOld).toBe(4);

  // The next pass resumes: the four left, then the account moves to the new certificate.
  const second = await runAccountRenewals(nowS());
  expect(second).toMatchObject({ renewedDevices: 4, done: 0 });
  const switched = await show(token, account.account_id);
  expect(switched).toMatchObject({ state: 'active', renewal: { state: 'running', done: 40, total: 40 } });
  expect(switched.certificate.id).toBe(made[0]!.id);
  // Once no add can still be writing a device with the previous certificate, the renewal is done.
  expect(await runAccountRenewals(nowS() + 61)).toMatchObject({ done: 1, renewedDevices: 0 });
  const done = await show(token, account.account_id);
  expect(done.renewal).toMatchObject({ renewal_id: renewalId, state: 'done', done: 40, total: 40, skipped: 0 });
  expect(done.renewal!.finished_at).toEqual(expect.any(Number));
  expect(done.slots).toMatchObject({ iphone: { used: 40, free: 60 } });
  expect(await renewalEvents(token)).toEqual([expect.objectContaining({ account_id: account.account_id, renewal_id: renewalId, state: 'done', renewed_devices: 40, skipped_devices: 0, certificate_id: made[0]!.id })]);
  // A pass more changes nothing and tells nobody twice.
  expect(await runAccountRenewals(nowS() + 120)).toMatchObject({ renewals: 0, renewedDevices: 0 });
  expect(await renewalEvents(token)).toHaveLength(1);

  for (const { kid, udid } of devices) {
    const device = (await getDevice(kid))!;
    expect(p12Serial(device.p12)).toBe(newSerial);
    expect(opensWithOpenssl(device.p12, '1')).toContain('BEGIN CERTIFICATE');
    expect(decodeProvisioningProfile(device.mobileprovision).udids).toEqual([udid]);
    expect(profileSerials(device.mobileprovision)).toEqual([newSerial]);
    expect(device.zt).toBe('normal');
  }
  // No device registered again, no slot spent, nothing charged; the previous certificate is not revoked.
  expect(bed.sim.registeredDevices(team.teamId)).toHaveLength(registered);
  expect(await balanceOf(userId)).toBe(balance);
  expect(activeCertificates(team.teamId).map((c) => c.id)).toContain(account.certificate.id);
  await expectLedgerAddsUp('default');

  // The next add is signed with the new certificate, and a new renewal may start.
  const next = (await add(bed.api, { token, udid: udid25(), type: 1 })).body.data as { p12: string };
  expect(p12Serial(next.p12)).toBe(newSerial);
});

test('Apple refusing the new certificate (the team at its cap) is answered at once and leaves no renewal behind', async () => {
  const { token, team, account } = await connected({ certificateLimit: 2 });
  const res = await act(token, account.account_id, { action: 'renew_certificate' }, 'es');
  expect(res.status).toBe(409);
  expect(res.body).toMatchObject({ code: 40003, data: { error: 'apple_certificate_limit' } });
  expect((await show(token, account.account_id)).renewal).toBeNull();
  expect(activeCertificates(team.teamId).map((c) => c.id).sort()).toEqual([team.certificateId, account.certificate.id].sort());
  await runAccountRenewals(nowS() + 600);
  expect((await show(token, account.account_id)).renewal).toBeNull();
});

test('a renewal whose request died before storing its certificate: the pass revokes the certificate Apple made for it and ends it failed, telling the owner', async () => {
  const { token, team, account } = await connected();
  const stored = (await getAccount(account.account_id))!;
  // The request stored its renewal and asked Apple, then died before writing the answer down.
  const request = await newSigningRequest('App Source test');
  const renewalId = 'ren_dead-request';
  expect(await beginRenewal(account.account_id, { renewalId, state: 'running', startedAt: nowS(), total: 0, done: 0, skipped: 0, signingKey: await seal(request.privateKeyPem) }, ['active'])).toBe(true);
  const orphan = await (await ascClientFor(stored)).createDistributionCertificate(request.csrPem);
  expect(activeCertificates(team.teamId).map((c) => c.id)).toContain(orphan.id);
  expect((await act(token, account.account_id, { action: 'renew_certificate' })).body).toMatchObject({ code: 40003, data: { error: 'apple_account_renewing' } });

  // Too early to tell a dead request from a slow one: nothing happens.
  expect(await runAccountRenewals(nowS())).toMatchObject({ failed: 0 });
  expect(await runAccountRenewals(nowS() + 121)).toMatchObject({ failed: 1 });
  expect(activeCertificates(team.teamId).map((c) => c.id)).not.toContain(orphan.id);
  expect(await show(token, account.account_id)).toMatchObject({ state: 'active', certificate: { id: account.certificate.id }, renewal: { renewal_id: renewalId, state: 'failed', error: 'apple_unavailable' } });
  expect(await renewalEvents(token)).toEqual([expect.objectContaining({ renewal_id: renewalId, state: 'failed', error: 'apple_unavailable' })]);
  // The owner may renew again now.
  expect((await act(token, account.account_id, { action: 'renew_certificate' })).status).toBe(202);
});

test('the membership renewal date is unknown until the owner gives it: checked (within the coming year), set, cleared, shown as null when unknown', async () => {
  const { token, team, account } = await connected();
  expect(account.membership_renews_at).toBeNull();
  const inAYear = nowS() + 300 * 86_400;
  const set = await act(token, account.account_id, { action: 'set_membership', membership_renews_at: inAYear });
  expect(set.body).toMatchObject({ code: 1, msg: 'Membership renewal date saved', data: { membership_renews_at: inAYear } });
  expect((await show(token, account.account_id)).membership_renews_at).toBe(inAYear);

  for (const bad of [nowS() - 86_400, nowS() + 400 * 86_400]) {
    const res = await act(token, account.account_id, { action: 'set_membership', membership_renews_at: bad }, 'zh');
    expect(res.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: ['membership_renews_at'] } });
    expect(res.body.msg).toContain('membership_renews_at');
  }
  expect((await act(token, account.account_id, { action: 'set_membership' })).body).toMatchObject({ code: 40002, data: { fields: ['membership_renews_at'] } });
  expect((await act(token, account.account_id, { action: 'pause', membership_renews_at: inAYear })).body).toMatchObject({ code: 40002, data: { error: 'unknown_field' } });
  expect((await show(token, account.account_id)).membership_renews_at).toBe(inAYear);

  expect((await act(token, account.account_id, { action: 'set_membership', membership_renews_at: 0 })).body).toMatchObject({ code: 1, data: { membership_renews_at: null } });
  // An add on an account with no known date: its certificate's ytime is when the certificate ends, never 0
  // (which the contract reads as "permanent").
  const res = await add(bed.api, { token, udid: udid25(), type: 1 });
  const certificateEnds = (await show(token, account.account_id)).certificate.expires_at;
  expect(certificateEnds).toBeGreaterThan(nowS());
  expect((await getDevice((res.body.data as { id: string }).id))?.ytime).toBe(certificateEnds);

  // Given on connecting: a bad date is refused before Apple is asked.
  const other = await newUser();
  const fresh = await bed.sim.createTeam({ mode: 'instant' });
  const refused = await bed.api.request('POST', '/api/user/apple-accounts', { headers: bearer(other.token, 'en'), json: { ...keyOf(fresh), membership_renews_at: nowS() - 10 } });
  expect(refused.body).toMatchObject({ code: 40002, msg: expect.stringContaining('within the next year'), data: { fields: ['membership_renews_at'] } });
  expect(activeCertificates(fresh.teamId)).toHaveLength(1);
  const good = await bed.api.request('POST', '/api/user/apple-accounts', { headers: bearer(other.token), json: { ...keyOf(fresh), membership_renews_at: inAYear } });
  expect(good.body).toMatchObject({ code: 1, data: { membership_renews_at: inAYear } });
  expect(team.teamId).not.toBe(fresh.teamId);
});

test('a review add waiting for Apple across a renewal gets a profile listing both certificates, so the .p12 it was handed still installs', async () => {
  const user = await newUser();
  const team = await bed.sim.createTeam({ mode: 'review' });
  const connect = await bed.api.request('POST', '/api/user/apple-accounts', { headers: bearer(user.token), json: { ...keyOf(team), mode: 'review' } });
  const account = connect.body.data as AccountView;
  const udid = udid25();
  const reserved = await add(bed.api, { token: user.token, udid, type: 1, mode: 'review' });
  expect(reserved.body).toMatchObject({ code: 1, data: { mobileprovision: '' } });
  const kid = (await getReservation((reserved.body.data as { id: string }).id))!.kid;
  const handedOut = (reserved.body.data as { p12: string }).p12;
  expect((await getDevice(kid))?.zt).toBe('processing');

  expect((await act(user.token, account.account_id, { action: 'renew_certificate' })).status).toBe(202);
  await runAccountRenewals(nowS());
  await runAccountRenewals(nowS() + 61);
  const renewed = await show(user.token, account.account_id);
  expect(renewed.renewal).toMatchObject({ state: 'done', total: 0 });
  const serialOf = (id: string) => bed.sim.signingAssets(team.teamId).certificates.find((c) => c.id === id)!.serialNumber;

  bed.sim.enableDevice(udid);
  expect(await runReservationWorker(nowS() + 3600)).toMatchObject({ issued: 1 });
  const device = (await getDevice(kid))!;
  expect(device.zt).toBe('normal');
  expect(p12Serial(device.p12)).toBe(p12Serial(handedOut));
  expect(p12Serial(handedOut)).toBe(serialOf(account.certificate.id));
  expect(profileSerials(device.mobileprovision).sort()).toEqual([serialOf(account.certificate.id), serialOf(renewed.certificate.id)].sort());
  expect(decodeProvisioningProfile(device.mobileprovision).udids).toEqual([udid]);
});
