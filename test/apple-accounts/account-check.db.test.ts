/**
 * The hourly account check (the revocation sweep) on a reseller's connected accounts, against the App Store
 * Connect simulator: a key Apple no longer accepts, a revoked certificate, one expiring within 30 days, a
 * class near its limit. Each sets the account's state or alert and sends one signed `account.alert` event;
 * rotating the key or renewing the certificate clears it. Time is the sweep's `now`, never waited for.
 */
import { jest } from '@jest/globals';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { getDevice } from '../../shared/db/repositories/device-repository';
import { runRevocationSweep } from '../../shared/domain/accounts/revocation-sweep';
import { add, newUser, udid25, type Testbed } from '../support/add-device-testbed';
import { bearer, CONNECTION_TIMEOUT_MS, keyOf, startConnectionTestbed, type Json } from '../support/apple-account-connection';

let bed: Testbed;
jest.setTimeout(CONNECTION_TIMEOUT_MS);

beforeAll(async () => {
  bed = await startConnectionTestbed();
});
afterAll(() => bed.close());

const nowS = () => Math.floor(Date.now() / 1000);

async function connected() {
  const user = await newUser();
  const team = await bed.sim.createTeam({ mode: 'instant' });
  const res = await bed.api.request('POST', '/api/user/apple-accounts', { headers: bearer(user.token), json: keyOf(team) });
  expect(JSON.stringify(res.body)).toContain('"code":1,');
  return { ...user, team, account: res.body.data as Json & { account_id: string; certificate: { id: string; expires_at: number } } };
}
async function show(token: string, accountId: string): Promise<Json> {
  return (await bed.api.request('GET', `/api/user/apple-accounts?account_id=${accountId}`, { headers: bearer(token) })).body.data as Json;
}
async function alerts(token: string): Promise<Json[]> {
  const res = await bed.api.request('GET', '/api/user/events?limit=100', { headers: bearer(token) });
  return (res.body.data as { events: { type: string; data: Json }[] }).events.filter((e) => e.type === 'account.alert').map((e) => e.data);
}
const act = (token: string, accountId: string, body: Json) => bed.api.request('POST', '/api/user/apple-accounts', { headers: bearer(token), json: { account_id: accountId, ...body } });

test('a key Apple no longer accepts makes the account failing (no add uses it) and tells the owner once; a new key brings it back', async () => {
  const { token, team, account } = await connected();
  bed.sim.revokeKey(team.teamId, team.keyId);
  const report = await runRevocationSweep(nowS(), { accountId: account.account_id });
  expect(report.failingAccounts).toEqual([account.account_id]);
  expect(await show(token, account.account_id)).toMatchObject({ state: 'failing', selling: false, alerts: ['key_rejected'] });
  expect(await alerts(token)).toEqual([expect.objectContaining({ account_id: account.account_id, alert: 'key_rejected', state: 'failing' })]);
  expect((await add(bed.api, { token, udid: udid25(), type: 1 })).body).toMatchObject({ code: 0, data: { error: 'no_account_available' } });

  await runRevocationSweep(nowS(), { accountId: account.account_id });
  expect(await alerts(token)).toHaveLength(1);

  const key = bed.sim.createKey(team.teamId);
  expect((await act(token, account.account_id, { action: 'rotate_key', ...keyOf(key) })).body).toMatchObject({ code: 1, data: { state: 'active', alerts: [] } });
  expect((await add(bed.api, { token, udid: udid25(), type: 1 })).body).toMatchObject({ code: 1 });
});

test('a certificate Apple revoked: the account and its certificates are revoked, the owner told; renewing brings the account back', async () => {
  const { token, team, account } = await connected();
  const kid = ((await add(bed.api, { token, udid: udid25(), type: 1 })).body.data as { id: string }).id;
  bed.sim.revokeCertificate(team.teamId, account.certificate.id);
  const report = await runRevocationSweep(nowS(), { accountId: account.account_id });
  expect(report.revokedAccounts).toEqual([account.account_id]);
  expect(await show(token, account.account_id)).toMatchObject({ state: 'revoked', alerts: ['certificate_revoked'] });
  expect((await alerts(token)).map((a) => a.alert)).toEqual(['certificate_revoked']);
  expect((await getDevice(kid))?.zt).toBe('revoked');

  const renewed = await act(token, account.account_id, { action: 'renew_certificate' });
  // Its certificates are all revoked already: it sells again at once, and the renewal has no device to renew.
  expect(renewed.status).toBe(202);
  expect(renewed.body).toMatchObject({ code: 1, data: { state: 'active', alerts: [], renewal: { state: 'running', total: 0 } } });
  expect((await add(bed.api, { token, udid: udid25(), type: 1 })).body).toMatchObject({ code: 1 });
});

test('a certificate expiring within 30 days and a class near its limit are announced once each, and cleared when no longer true', async () => {
  const { token, account } = await connected();
  const expires = account.certificate.expires_at;
  await runRevocationSweep(expires - 31 * 86_400, { accountId: account.account_id });
  expect(await alerts(token)).toEqual([]);
  await runRevocationSweep(expires - 29 * 86_400, { accountId: account.account_id });
  await runRevocationSweep(expires - 28 * 86_400, { accountId: account.account_id });
  expect(await alerts(token)).toEqual([expect.objectContaining({ alert: 'certificate_expiring', certificate_expires_at: expires })]);

  // 95 iPhones registered: 5 left.
  await documentClient().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { account_id: account.account_id }, UpdateExpression: 'SET free_iphone = :f', ExpressionAttributeValues: { ':f': 5 } }));
  await runRevocationSweep(nowS(), { accountId: account.account_id });
  // Both in the same second: the feed orders events of one second by id, not by when they were written.
  expect((await alerts(token)).map((a) => a.alert).sort()).toEqual(['certificate_expiring', 'slots_low']);
  expect(await show(token, account.account_id)).toMatchObject({ alerts: ['slots_low'], slots: { iphone: { used: 95, free: 5 } } });
});
