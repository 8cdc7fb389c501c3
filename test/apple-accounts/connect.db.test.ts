/**
 * A reseller connects their own Apple account with only an App Store Connect API key, on DynamoDB Local and the
 * App Store Connect simulator, through the HTTP API: the certificate and bundle id the service makes, the list
 * with slots and dates, a `type=1` add on it (a .p12 openssl opens, a profile listing the UDID), the refusals
 * (wrong key, key without the role, the certificate cap, Apple down, another reseller's account), and keeping
 * it: a new key, a renewed certificate, pausing and retiring.
 */
import { execFileSync } from 'node:child_process';
import { jest } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProvisioningProfile } from '../../shared/apple/profile-reader';
import { readP12 } from '../../shared/apple/p12-reader';
import { getDevice } from '../../shared/db/repositories/device-repository';
import { runAccountRenewals } from '../../shared/domain/accounts/renewal-job';
import { add, newUser, udid25, type Testbed } from '../support/add-device-testbed';
import { bearer, CONNECTION_TIMEOUT_MS, keyOf, startConnectionTestbed, type Json } from '../support/apple-account-connection';

let bed: Testbed;
jest.setTimeout(CONNECTION_TIMEOUT_MS);
const nowS = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  bed = await startConnectionTestbed();
});
afterAll(() => bed.close());

function connect(token: string, body: Json, lang = 'en') {
  return bed.api.request('POST', '/api/user/apple-accounts', { headers: bearer(token, lang), json: body });
}
async function list(token: string): Promise<Json[]> {
  const res = await bed.api.request('GET', '/api/user/apple-accounts', { headers: bearer(token) });
  expect(res.body).toMatchObject({ code: 1 });
  return (res.body.data as { accounts: Json[] }).accounts;
}
function act(token: string, accountId: string, body: Json, lang = 'en') {
  return bed.api.request('POST', '/api/user/apple-accounts', { headers: bearer(token, lang), json: { account_id: accountId, ...body } });
}
const activeCertificates = (teamId: string) => bed.sim.signingAssets(teamId).certificates.filter((c) => !c.revoked);

/** A user with a connected account on a fresh team; the team and the account as answered. */
async function connected(options: { certificateLimit?: number } = {}) {
  const user = await newUser();
  const team = await bed.sim.createTeam({ mode: 'instant', ...options });
  const res = await connect(user.token, keyOf(team));
  expect(JSON.stringify(res.body)).toContain('"code":1,');
  return { ...user, team, account: res.body.data as Json & { account_id: string; certificate: { id: string; expires_at: number } } };
}

function opensWithOpenssl(p12Base64: string, password: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'p12-'));
  writeFileSync(join(dir, 'c.p12'), Buffer.from(p12Base64, 'base64'));
  return execFileSync('openssl', ['pkcs12', '-in', join(dir, 'c.p12'), '-passin', `pass:${password}`, '-nokeys'], { encoding: 'utf8' });
}

/** The serial number of the certificate inside a .p12, as Apple lists it. */
const p12Serial = (p12: string) => new X509Certificate(readP12(p12, '1').certificatePem).serialNumber.toUpperCase();

test('connecting with only an API key makes a certificate and lists the account; a type=1 add on it delivers a .p12 openssl opens and a profile listing the UDID', async () => {
  const { userId, token, team, account } = await connected();
  expect(account).toMatchObject({
    team_id: team.teamId,
    state: 'active',
    selling: true,
    connected: true,
    key_id: team.keyId,
    slots: { iphone: { used: 0, free: 100, limit: 100 }, ipad: { used: 0, free: 100, limit: 100 }, mac: { used: 0, free: 100, limit: 100 } },
  });
  // A certificate of its own, beside the one the team had; neither the .p8 nor a private key is answered.
  const made = activeCertificates(team.teamId).find((c) => c.id === account.certificate.id)!;
  expect(made).toBeDefined();
  expect(account.certificate.id).not.toBe(team.certificateId);
  expect(account.certificate.expires_at).toBe(Math.floor(Date.parse(made.expiresAt) / 1000));
  // Apple's API does not say when the membership renews: unknown until the owner gives it, never guessed.
  expect(account.membership_renews_at).toBeNull();
  expect(bed.sim.signingAssets(team.teamId).bundleIds.map((b) => b.identifier)).toEqual(['*']); // the team's wildcard, reused
  expect((await list(token)).map((a) => a.account_id)).toEqual([account.account_id]);

  const udid = udid25();
  const res = await add(bed.api, { token, udid, type: 1 });
  expect(res.body).toMatchObject({ code: 1, data: { pool: 1 } });
  const data = res.body.data as { id: string; p12: string; mobileprovision: string };
  expect(opensWithOpenssl(data.p12, '1')).toContain('BEGIN CERTIFICATE');
  expect(p12Serial(data.p12)).toBe(made.serialNumber);
  expect(decodeProvisioningProfile(data.mobileprovision).udids).toEqual([udid]);
  expect((await getDevice(data.id))?.account_id).toBe(account.account_id);

  const [after] = await list(token);
  expect(after).toMatchObject({ slots: { iphone: { used: 1, free: 99 } } });
  const devices = await bed.api.request('GET', `/api/device/list?token=${token}&account_id=${account.account_id}`, { headers: { 'X-Lang': 'en' } });
  expect(devices.body).toMatchObject({ code: 1 });
  expect((devices.body.data as { items: { kid: string }[] }).items.map((d) => d.kid)).toEqual([data.id]);
  for (const body of [JSON.stringify(await list(token)), JSON.stringify(res.body)]) {
    expect(body).not.toContain('PRIVATE KEY');
    expect(body).not.toContain(team.privateKeyPem.split('\n')[1]);
  }
  expect(userId).toBeTruthy();
});

test("another reseller never sees, uses or changes the account: its id is answered as unknown everywhere", async () => {
  const { account } = await connected();
  const other = await newUser();
  expect(await list(other.token)).toEqual([]);
  const show = await bed.api.request('GET', `/api/user/apple-accounts?account_id=${account.account_id}`, { headers: bearer(other.token) });
  expect(show.status).toBe(404);
  expect(show.body).toMatchObject({ code: 40001, msg: 'Apple account not found or not yours', data: { error: 'apple_account_not_found' } });
  for (const body of [{ action: 'pause' }, { action: 'renew_certificate' }]) {
    expect((await act(other.token, account.account_id, body)).body).toMatchObject({ code: 40001, data: { error: 'apple_account_not_found' } });
  }
  const retire = await act(other.token, account.account_id, { action: 'retire' }, 'zh');
  expect(retire.body).toMatchObject({ code: 40001, msg: '苹果账号不存在或不属于您' });
  const devices = await bed.api.request('GET', `/api/device/list?token=${other.token}&account_id=${account.account_id}`, { headers: { 'X-Lang': 'en' } });
  expect(devices.body).toMatchObject({ code: 100, data: { error: 'apple_account_not_found' } });
  // Its private pool is empty: the other reseller's type=1 add finds no account.
  expect((await add(bed.api, { token: other.token, udid: udid25(), type: 1 })).body).toMatchObject({ code: 0, data: { error: 'no_account_available' } });
  expect(await list(other.token)).toEqual([]);
});

test('a wrong key, a key without the role, and the certificate cap are refused in the caller language, and nothing is made', async () => {
  const user = await newUser();
  const team = await bed.sim.createTeam({ mode: 'instant' });
  const wrong = await connect(user.token, { ...keyOf(team), key_id: 'ZZZZZZZZZZ' });
  expect(wrong.status).toBe(409);
  expect(wrong.body).toMatchObject({ code: 40003, msg: 'Apple does not accept this API key: check the issuer id, the key id and the .p8', data: { error: 'apple_key_invalid' } });
  const notAKey = await connect(user.token, { ...keyOf(team), private_key: 'hello' });
  expect(notAKey.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: ['private_key'] } });

  const developer = await bed.sim.createTeam({ mode: 'instant', keyRole: 'DEVELOPER' });
  const role = await connect(user.token, keyOf(developer), 'es');
  expect(role.body).toMatchObject({ code: 40003, data: { error: 'apple_key_role' } });
  expect(role.body.msg).toContain('Admin o App Manager');

  const full = await bed.sim.createTeam({ mode: 'instant', certificateLimit: 1 });
  const cap = await connect(user.token, keyOf(full));
  expect(cap.body).toMatchObject({ code: 40003, data: { error: 'apple_certificate_limit', certificates: [{ id: full.certificateId }] } });
  expect(cap.body.msg).toContain('nothing was created');

  for (const t of [team, developer, full]) expect(activeCertificates(t.teamId).map((c) => c.id)).toEqual([t.certificateId]);
  expect(await list(user.token)).toEqual([]);
});

test('Apple down during a connection leaves nothing behind; a certificate whose answer was lost is found and used, never made twice', async () => {
  const user = await newUser();
  const down = await bed.sim.createTeam({ mode: 'instant' });
  bed.sim.injectFault({ teamId: down.teamId, method: 'POST', path: '/v1/certificates', effect: 'unavailable' });
  const res = await connect(user.token, keyOf(down));
  expect(res.status).toBe(503);
  expect(res.body).toMatchObject({ data: { error: 'apple_unavailable' } });
  expect(bed.sim.signingAssets(down.teamId).certificates.map((c) => c.id)).toEqual([down.certificateId]);

  const lost = await bed.sim.createTeam({ mode: 'instant' });
  bed.sim.injectFault({ teamId: lost.teamId, method: 'POST', path: '/v1/certificates', effect: 'lose-answer' });
  const found = await connect(user.token, keyOf(lost));
  expect(found.body).toMatchObject({ code: 1 });
  // Apple made it (the answer was lost): the service found it by its key and uses it; no second one was made.
  const certificates = bed.sim.signingAssets(lost.teamId).certificates;
  expect(certificates).toHaveLength(2);
  expect(certificates.map((c) => c.id)).toContain((found.body.data as { certificate: { id: string } }).certificate.id);
  expect(await list(user.token)).toHaveLength(1);
});

test('a failure after the certificate was made revokes it; the same team connected twice is refused and undone too', async () => {
  const user = await newUser();
  const later = await bed.sim.createTeam({ mode: 'instant' });
  bed.sim.injectFault({ teamId: later.teamId, method: 'GET', path: '/v1/bundleIds', effect: 'unavailable', times: 2 });
  const failed = await connect(user.token, keyOf(later));
  expect(failed.status).toBe(503);
  expect(failed.body).toMatchObject({ data: { error: 'apple_connect_failed' } });
  expect(activeCertificates(later.teamId).map((c) => c.id)).toEqual([later.certificateId]);
  expect(await list(user.token)).toEqual([]);

  // Apple back: the same key connects.
  expect((await connect(user.token, keyOf(later))).body).toMatchObject({ code: 1 });
  expect(await list(user.token)).toHaveLength(1);
  // The same team twice is refused, and the certificate made for the second try is revoked again.
  expect((await connect(user.token, keyOf(later))).body).toMatchObject({ code: 40003, data: { error: 'apple_account_exists' } });
  expect(activeCertificates(later.teamId)).toHaveLength(2);
  // Another reseller with a key of the same team: refused, without saying who holds it, and nothing left made.
  const other = await newUser();
  const taken = await connect(other.token, keyOf(later));
  expect(taken.status).toBe(409);
  expect(taken.body).toMatchObject({ code: 40003, msg: "This Apple team is already connected to this service by another account; a team's device slots can be counted in one place only", data: { error: 'apple_team_in_use' } });
  expect(JSON.stringify(taken.body)).not.toContain(user.userId);
  expect(activeCertificates(later.teamId)).toHaveLength(2);
  expect(await list(other.token)).toEqual([]);
});

test('a new key keeps the account and its devices; a key of another team is refused', async () => {
  const { token, team, account } = await connected();
  const udid = udid25();
  const first = (await add(bed.api, { token, udid, type: 1 })).body.data as { id: string };

  const stranger = await bed.sim.createTeam({ mode: 'instant' });
  expect((await act(token, account.account_id, { action: 'rotate_key', ...keyOf(stranger) })).body).toMatchObject({ code: 40003, data: { error: 'apple_key_other_team' } });

  const key = bed.sim.createKey(team.teamId);
  const rotated = await act(token, account.account_id, { action: 'rotate_key', ...keyOf(key) });
  expect(rotated.body).toMatchObject({ code: 1, msg: 'API key replaced', data: { key_id: key.keyId, state: 'active' } });
  bed.sim.revokeKey(team.teamId, team.keyId);

  const second = await add(bed.api, { token, udid: udid25(), type: 1 });
  expect(second.body).toMatchObject({ code: 1 });
  const device = (await getDevice(first.id))!;
  expect(device.zt).toBe('normal');
  expect(activeCertificates(team.teamId).map((c) => c.serialNumber)).toContain(p12Serial(device.p12));
});

test('renewing the certificate gives every device on it a new profile and .p12 without spending a slot; the old certificate keeps working', async () => {
  const { token, team, account } = await connected();
  const udids = [udid25(), udid25()];
  const kids: string[] = [];
  for (const udid of udids) kids.push(((await add(bed.api, { token, udid, type: 1 })).body.data as { id: string }).id);
  const registered = bed.sim.registeredDevices(team.teamId).length;

  const res = await act(token, account.account_id, { action: 'renew_certificate' }, 'en');
  expect(res.status).toBe(202);
  expect(res.body).toMatchObject({ code: 1, data: { renewal: { state: 'running', done: 0, total: 2 } } });
  // The devices' new profiles are the background job's (test/apple-accounts/renewal.db.test.ts has the details).
  await runAccountRenewals(nowS());
  await runAccountRenewals(nowS() + 61);
  const [renewed] = (await list(token)) as { certificate: { id: string }; slots: Json; renewal: Json }[];
  expect(renewed!.renewal).toMatchObject({ state: 'done', done: 2, total: 2 });
  expect(renewed!.certificate.id).not.toBe(account.certificate.id);
  expect(renewed!.slots).toMatchObject({ iphone: { used: 2, free: 98 } });
  expect(bed.sim.registeredDevices(team.teamId)).toHaveLength(registered);

  const active = activeCertificates(team.teamId);
  const newSerial = active.find((c) => c.id === renewed!.certificate.id)!.serialNumber;
  expect(active.map((c) => c.id)).toContain(account.certificate.id); // not revoked: what customers installed keeps working
  for (const [i, kid] of kids.entries()) {
    const device = (await getDevice(kid))!;
    expect(p12Serial(device.p12)).toBe(newSerial);
    expect(opensWithOpenssl(device.p12, '1')).toContain('BEGIN CERTIFICATE');
    const profile = decodeProvisioningProfile(device.mobileprovision);
    expect(profile.udids).toEqual([udids[i]]);
    expect(profile.developerCertificates.map((der) => new X509Certificate(Buffer.from(der, 'base64')).serialNumber.toUpperCase())).toEqual([newSerial]);
  }
  // The next add on it is signed with the new certificate.
  const next = (await add(bed.api, { token, udid: udid25(), type: 1 })).body.data as { p12: string };
  expect(p12Serial(next.p12)).toBe(newSerial);
});

test('a paused account sells nothing until resumed; a retired one never again, and keeps its certificates', async () => {
  const { token, account } = await connected();
  const kept = ((await add(bed.api, { token, udid: udid25(), type: 1 })).body.data as { id: string }).id;
  expect((await act(token, account.account_id, { action: 'pause' })).body).toMatchObject({ code: 1, data: { paused: true, selling: false } });
  expect((await add(bed.api, { token, udid: udid25(), type: 1 })).body).toMatchObject({ code: 0, data: { error: 'no_account_available' } });
  expect((await act(token, account.account_id, { action: 'resume' })).body).toMatchObject({ code: 1, data: { selling: true } });
  expect((await add(bed.api, { token, udid: udid25(), type: 1 })).body).toMatchObject({ code: 1 });

  const retired = await act(token, account.account_id, { action: 'retire' });
  expect(retired.body).toMatchObject({ code: 1, data: { state: 'retired', selling: false } });
  expect((await add(bed.api, { token, udid: udid25(), type: 1 })).body).toMatchObject({ code: 0, data: { error: 'no_account_available' } });
  expect((await act(token, account.account_id, { action: 'resume' })).body).toMatchObject({ code: 40003, data: { error: 'apple_account_retired_already' } });
  expect((await getDevice(kept))?.zt).toBe('normal');
  expect((await list(token)).map((a) => a.state)).toEqual(['retired']);
});
