import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { getAccount, markAccountRevoked } from '../../shared/db/repositories/account-repository';
import { getDevice } from '../../shared/db/repositories/device-repository';
import { getReservation } from '../../shared/db/repositories/reservation-repository';
import { tableName } from '../../shared/db/table-names';
import { accountSecrets } from '../../shared/domain/accounts/account-service';
import { runRevocationSweep } from '../../shared/domain/accounts/revocation-sweep';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { freePort } from '../../infra/local/free-port';
import { addDevice } from '../../shared/domain/add-device/add-device-service';
import { parseAddRequest } from '../../shared/validation/add-params';
import { createTenant } from '../../shared/domain/tenants/tenant-service';
import { getUser } from '../../shared/db/repositories/user-repository';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { expectLedgerAddsUp } from '../support/ledger';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

const nowS = () => Math.floor(Date.now() / 1000);
type Added = { id: string };

test('account secrets are sealed at rest and open to the originals', async () => {
  const { account, team } = await simulatedAccount(bed.sim, { mode: 'instant', weight: 50 });
  const stored = await documentClient().send(new GetCommand({ TableName: tableName('accounts'), Key: { account_id: account.accountId } }));
  const raw = JSON.stringify(stored.Item);
  expect(raw).not.toContain('PRIVATE KEY');
  expect(raw).not.toContain(team.p12Base64.slice(0, 40));
  expect(raw).not.toContain(team.p12Password);
  expect(await accountSecrets((await getAccount(account.accountId))!)).toEqual({ privateKeyPem: team.privateKeyPem, p12Base64: team.p12Base64, p12Password: team.p12Password });
});

test('when Apple cannot be reached the add fails with code 0, charges nothing, and the slot goes back once Apple says it has no such device', async () => {
  const { account } = await simulatedAccount(bed.sim, { mode: 'review', weight: 0 });
  const setBaseUrl = (url: string) => documentClient().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { account_id: account.accountId }, UpdateExpression: 'SET base_url = :u', ExpressionAttributeValues: { ':u': url } }));
  const { baseUrl } = (await getAccount(account.accountId))!;
  // Point the account at a port where nothing listens.
  await setBaseUrl(`http://127.0.0.1:${await freePort()}`);
  const { userId, token } = await newUser(100_000);
  const res = await add(bed.api, { token, udid: udid25(), mode: 'review' }, { lang: 'vi' });
  expect(res.status).toBe(503);
  expect(res.body).toMatchObject({ code: 0, msg: 'Apple hiện không khả dụng; chưa bị trừ tiền, vui lòng thử lại sau', data: { error: 'apple_unavailable' } });
  expect(await balanceOf(userId)).toBe(100_000);
  // Whether Apple registered the device is not known: the slot stays kept until the worker can ask.
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
  await runReservationWorker(nowS() + 301);
  expect((await getAccount(account.accountId))!.free.iphone).toBe(99);
  await setBaseUrl(baseUrl);
  await runReservationWorker(nowS() + 302);
  expect((await getAccount(account.accountId))!.free.iphone).toBe(100);
  // Out of the pool for the tests below (it is the first review account in weight order).
  await markAccountRevoked(account.accountId, nowS());
});

test('pending reservations of a revoked account fail and are refunded; devices past the membership expiry become expired', async () => {
  const review = await simulatedAccount(bed.sim, { mode: 'review', weight: 1 });
  const { userId, token } = await newUser(100_000);
  const reserved = (await add(bed.api, { token, udid: udid25(), mode: 'review' })).body.data as Added;
  expect((await getReservation(reserved.id))?.accountId).toBe(review.account.accountId);
  bed.sim.revokeCertificate(review.team.teamId);
  expect((await runRevocationSweep(nowS(), { accountId: review.account.accountId })).revokedAccounts).toEqual([review.account.accountId]);
  await runReservationWorker(nowS() + 60);
  expect(await getReservation(reserved.id)).toMatchObject({ status: 'failed', failureReason: 'account_revoked' });
  expect(await balanceOf(userId)).toBe(100_000);

  const instant = await simulatedAccount(bed.sim, { mode: 'instant', weight: 0 });
  const added = (await add(bed.api, { token, udid: udid25() })).body.data as Added;
  expect((await getDevice(added.id))?.account_id).toBe(instant.account.accountId);
  const report = await runRevocationSweep(instant.account.expiresAt + 1, { accountId: instant.account.accountId });
  expect(report.expiredDevices).toBe(1);
  expect((await getDevice(added.id))?.zt).toBe('expired');
});

test('a token presented on another tenant’s site adds nothing there', async () => {
  const other = await createTenant({ name: 'Other shop', domain: 'other.example.com' }, nowS());
  const { userId } = await newUser(100_000);
  const user = (await getUser(userId))!;
  await expect(addDevice({ tenant: other, user, now: nowS() }, parseAddRequest({ udid: udid25() }))).rejects.toMatchObject({ reason: 'token_invalid' });
  expect(await balanceOf(userId)).toBe(100_000);
});

test('ledger check: every balance and code change above has its entry, and every kept charge its certificate', async () => {
  await expectLedgerAddsUp(undefined);
});
