/**
 * Events from their real triggers to a real receiver: the add, the reservation worker with the App Store
 * Connect simulator, the revocation sweep, the low-balance pass; the outbox, the dispatcher (retry pass and
 * stream consumer), the webhook and feed routes. Time is moved with the service clock, never waited for.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { setClock } from '../../shared/clock';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { getDevice } from '../../shared/db/repositories/device-repository';
import { claimEvent, storedEventFromItem, type StoredEvent } from '../../shared/db/repositories/event-repository';
import { getWebhook, recordDelivery } from '../../shared/db/repositories/webhook-repository';
import { RECENT_DELIVERIES_KEPT, webhookView } from '../../shared/records/webhook';
import { credit } from '../../shared/domain/users/user-service';
import { getReservation } from '../../shared/db/repositories/reservation-repository';
import { addAccount } from '../../shared/domain/accounts/account-service';
import { runRevocationSweep } from '../../shared/domain/accounts/revocation-sweep';
import { runBalanceLowPass } from '../../shared/domain/events/balance-low';
import { ATTEMPT_LEASE_SECONDS, retryDelaySeconds, runDispatchPass, RETRY_WINDOW_SECONDS } from '../../shared/domain/events/dispatcher';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { simulatedAccountInput } from '../../infra/admin/simulated-account';
import { handler as streamHandler } from '../../functions/event-dispatcher/handler';
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { startReceiver, type Delivery, type Receiver } from '../support/webhook-receiver';

let bed: Testbed;
let receiver: Receiver;
beforeAll(async () => {
  bed = await startTestbed();
  receiver = await startReceiver();
  await simulatedAccount(bed.sim, { mode: 'instant', weight: 1 });
});
afterAll(async () => {
  await receiver.close();
  await bed.close();
});

const nowS = () => Math.floor(Date.now() / 1000);
const bearer = (token: string, lang = 'en') => ({ Authorization: `Bearer ${token}`, 'X-Lang': lang });

function setWebhook(token: string, body: Record<string, unknown>, lang = 'en') {
  return bed.api.request('PUT', '/api/user/webhook', { headers: bearer(token, lang), json: body });
}

/** A user with a webhook to the shared receiver; the secret it was answered. */
async function subscribedUser(balance = 100_000, body: Record<string, unknown> = {}) {
  const user = await newUser(balance);
  const res = await setWebhook(user.token, { url: receiver.url, ...body });
  expect(res.body).toMatchObject({ code: 1 });
  return { ...user, secret: String((res.body.data as { secret: string }).secret) };
}

const mine = (userId: string, type?: string): Delivery[] => receiver.deliveries.filter((d) => d.body.user_id === userId && (!type || d.body.type === type));

/** The user's events as the feed lists them (every page). */
async function feed(token: string, query = ''): Promise<Array<{ id: string; type: string; data: Record<string, unknown> }>> {
  const res = await bed.api.request('GET', `/api/user/events?limit=100${query}`, { headers: bearer(token) });
  expect(res.body).toMatchObject({ code: 1 });
  return (res.body.data as { events: Array<{ id: string; type: string; data: Record<string, unknown> }> }).events;
}

/** The README's verification snippet, run as a reader would paste it. */
function readmeVerifier(): (raw: string | Buffer, header: unknown, secret: string) => boolean {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf("```js\nimport { createHmac, timingSafeEqual } from 'node:crypto';\nfunction verifyEvent(");
  expect(start).toBeGreaterThan(0);
  const code = readme.slice(readme.indexOf('\n', start) + 1, readme.indexOf('```', start + 5)).replace(/^import .*$/m, '');
  return new Function('createHmac', 'timingSafeEqual', `${code}\nreturn verifyEvent;`)(createHmac, timingSafeEqual) as (raw: string | Buffer, header: unknown, secret: string) => boolean;
}

async function storedEventsOf(userId: string): Promise<StoredEvent[]> {
  const out = await documentClient().send(new QueryCommand({ TableName: tableName('events'), KeyConditionExpression: 'user_id = :u', ExpressionAttributeValues: { ':u': userId }, ConsistentRead: true }));
  return (out.Items ?? []).map(storedEventFromItem);
}

test('an instant add delivers device.added, signed so that the README snippet verifies it, with no certificate in it', async () => {
  const { userId, token, secret } = await subscribedUser();
  const udid = udid25();
  const res = await add(bed.api, { token, udid });
  expect(res.body.code).toBe(1);
  const { id: kid, p12 } = res.body.data as { id: string; p12: string };

  expect((await runDispatchPass(nowS())).delivered).toBeGreaterThanOrEqual(1);
  const [delivery] = mine(userId, 'device.added');
  expect(delivery!.body).toMatchObject({ type: 'device.added', user_id: userId, tenant_id: 'default', data: { kid, udid, mode: 'instant', charge: { kind: 'balance', amount: 100_000 - (await balanceOf(userId)) } } });
  expect(delivery!.headers['x-event-id']).toBe(delivery!.body.id);
  expect(delivery!.raw).not.toContain(p12.slice(0, 40));

  const verify = readmeVerifier();
  expect(verify(delivery!.raw, delivery!.headers['x-signature'], secret)).toBe(true);
  expect(verify(Buffer.from(delivery!.raw), delivery!.headers['x-signature'], secret)).toBe(true);
  expect(verify(delivery!.raw.replace(udid, udid25()), delivery!.headers['x-signature'], secret)).toBe(false);
  expect(verify(delivery!.raw, delivery!.headers['x-signature'], 'whsec_not-the-secret')).toBe(false);
  // An old signature replayed later: refused by the timestamp check.
  const old = String(delivery!.headers['x-signature']).replace(/^t=\d+/, `t=${nowS() - 3600}`);
  expect(verify(delivery!.raw, old, secret)).toBe(false);

  // The feed lists the same event, and a second pass sends nothing again.
  expect((await feed(token)).map((e) => e.id)).toEqual([delivery!.body.id]);
  await runDispatchPass(nowS());
  expect(mine(userId)).toHaveLength(1);
});

test('a review add delivers reservation.issued when the simulator enables the device, and reservation.failed with the refund when Apple refuses one', async () => {
  const { account } = await simulatedAccount(bed.sim, { mode: 'review', weight: 1 });
  const { userId, token } = await subscribedUser();
  const issuedUdid = udid25();
  const refusedUdid = udid25();
  const first = await add(bed.api, { token, udid: issuedUdid, mode: 'review' });
  const second = await add(bed.api, { token, udid: refusedUdid, mode: 'review' });
  const issuedId = (first.body.data as { id: string }).id;
  const refusedId = (second.body.data as { id: string }).id;
  expect((await getReservation(issuedId))?.accountId).toBe(account.accountId);
  const charged = 100_000 - (await balanceOf(userId));

  await runDispatchPass(nowS());
  expect(mine(userId)).toEqual([]); // pending reviews report nothing yet

  bed.sim.enableDevice(issuedUdid);
  bed.sim.markDeviceIneligible(refusedUdid);
  await runReservationWorker(nowS() + 3600);
  await runDispatchPass(nowS());
  const issued = mine(userId, 'reservation.issued');
  expect(issued.map((d) => d.body.data)).toEqual([{ reservation_id: issuedId, kid: (await getReservation(issuedId))!.kid, udid: issuedUdid, type: 'iphone' }]);
  const failed = mine(userId, 'reservation.failed');
  expect(failed.map((d) => d.body.data)).toEqual([
    expect.objectContaining({ reservation_id: refusedId, udid: refusedUdid, zt: 'ineligible', refund: { kind: 'balance', amount: charged / 2 } }),
  ]);
  expect(await balanceOf(userId)).toBe(100_000 - charged / 2);
});

test('account revoke delivers device.revoked for each certificate, with the end of its free re-issue window', async () => {
  const { userId, token } = await subscribedUser();
  const { account, team } = await simulatedAccount(bed.sim, { mode: 'instant', pool: 'private', userId });
  const kids: string[] = [];
  for (const warranty of ['1', '0']) {
    const res = await add(bed.api, { token, udid: udid25(), type: 1, warranty });
    expect(res.body.code).toBe(1);
    kids.push((res.body.data as { id: string }).id);
  }
  await runDispatchPass(nowS());
  const before = mine(userId).length;

  bed.sim.revokeCertificate(team.teamId);
  expect(await runRevocationSweep(nowS(), { accountId: account.accountId })).toMatchObject({ revokedDevices: 2 });
  await runDispatchPass(nowS());
  const revoked = mine(userId, 'device.revoked');
  expect(revoked).toHaveLength(2);
  const byKid = new Map(revoked.map((d) => [d.body.data.kid, d.body.data]));
  const tier1 = await getDevice(kids[0]!);
  expect(byKid.get(kids[0])).toMatchObject({ warranty: 1, reissue_until: tier1!.addtime + 40 * 86_400 });
  expect(byKid.get(kids[1])).toMatchObject({ warranty: 0, reissue_until: 0 });
  // The account is the user's own (private pool): they are told of it too, once.
  expect(mine(userId, 'account.alert').map((d) => d.body.data)).toEqual([expect.objectContaining({ account_id: account.accountId, alert: 'certificate_revoked' })]);
  expect(mine(userId).length).toBe(before + 3);

  // A second sweep changes nothing and reports nothing again.
  await runRevocationSweep(nowS(), { accountId: account.accountId });
  await runDispatchPass(nowS());
  expect(mine(userId, 'device.revoked')).toHaveLength(2);
  expect(mine(userId, 'account.alert')).toHaveLength(1);
});

test('device.expiring comes once per certificate when the membership ends within the tenant’s notice period, reading only the due account', async () => {
  const { userId, token } = await subscribedUser();
  const team = await bed.sim.createTeam({ mode: 'instant' });
  const expiresAt = nowS() + 10 * 86_400;
  const account = await addAccount(simulatedAccountInput(team, { pool: 'private', userId, mode: 'instant', expiresAt }), nowS());
  const res = await add(bed.api, { token, udid: udid25(), type: 1 });
  const kid = (res.body.data as { id: string }).id;

  // Ten days out: outside the default 7-day notice.
  expect((await runRevocationSweep(nowS(), { accountId: account.accountId })).expiringNotices).toBe(0);
  // Six days before the end: one notice, and no second one on the next sweeps.
  const sixDaysBefore = expiresAt - 6 * 86_400;
  expect((await runRevocationSweep(sixDaysBefore, { accountId: account.accountId })).expiringNotices).toBe(1);
  expect((await runRevocationSweep(sixDaysBefore + 3600, { accountId: account.accountId })).expiringNotices).toBe(0);
  await runDispatchPass(nowS());
  expect(mine(userId, 'device.expiring').map((d) => d.body.data)).toEqual([expect.objectContaining({ kid, expires_at: expiresAt, days_left: 6 })]);
});

test('balance.low is sent once per crossing of the user’s threshold', async () => {
  const { userId, token } = await subscribedUser(100_000, { balance_low_threshold: 99_000 });
  expect((await bed.api.request('GET', '/api/user/webhook', { headers: bearer(token) })).body.data).toMatchObject({ balance_low_threshold: 99_000 });
  await runBalanceLowPass(nowS());
  expect((await storedEventsOf(userId)).filter((e) => e.event.type === 'balance.low')).toEqual([]);

  expect((await add(bed.api, { token, udid: udid25() })).body.code).toBe(1);
  expect((await add(bed.api, { token, udid: udid25() })).body.code).toBe(1);
  await runBalanceLowPass(nowS());
  await runBalanceLowPass(nowS());
  const balance = await balanceOf(userId);
  let lows = (await storedEventsOf(userId)).filter((e) => e.event.type === 'balance.low');
  expect(lows.map((e) => e.event.data)).toEqual([{ balance, threshold: 99_000 }]);

  // Back above, then below again: a new crossing, a new event.
  await credit(userId, 100_000, nowS());
  await runBalanceLowPass(nowS());
  await credit(userId, -(await balanceOf(userId)) + 50_000, nowS());
  await runBalanceLowPass(nowS());
  lows = (await storedEventsOf(userId)).filter((e) => e.event.type === 'balance.low');
  expect(lows.map((e) => e.event.data)).toEqual(expect.arrayContaining([{ balance, threshold: 99_000 }, { balance: 50_000, threshold: 99_000 }]));
  expect(lows).toHaveLength(2);
  await runDispatchPass(nowS());
  expect(mine(userId, 'balance.low')).toHaveLength(2);
});

describe('with the clock under control', () => {
  let restore: (() => void) | undefined;
  // Whatever earlier tests left owed is delivered first, so each pass below counts this test's events only.
  beforeEach(() => runDispatchPass(nowS()));
  afterEach(() => {
    restore?.();
    restore = undefined;
    receiver.answer(200);
  });

  test('a receiver that fails then recovers gets the event once it recovers, with its original id, and GET shows the failures meanwhile', async () => {
    let now = nowS();
    restore = setClock(() => now * 1000);
    const { userId, token } = await subscribedUser();
    expect((await add(bed.api, { token, udid: udid25() })).body.code).toBe(1);
    const [stored] = await storedEventsOf(userId);

    receiver.answer(503);
    expect(await runDispatchPass(now)).toMatchObject({ retrying: 1 });
    expect(await runDispatchPass(now + 10)).toMatchObject({ retrying: 0, delivered: 0 }); // not due yet
    const during = await bed.api.request('GET', '/api/user/webhook', { headers: bearer(token) });
    expect(during.body.data).toMatchObject({ webhook: { enabled: true, last_status: 503, last_error: 'http_status', consecutive_failures: 1 } });

    now += retryDelaySeconds(1);
    expect(await runDispatchPass(now)).toMatchObject({ retrying: 1 });
    receiver.answer(200);
    now += retryDelaySeconds(2);
    expect(await runDispatchPass(now)).toMatchObject({ delivered: 1 });
    expect(mine(userId).map((d) => d.body.id)).toEqual([stored!.event.id]);
    const after = await bed.api.request('GET', '/api/user/webhook', { headers: bearer(token) });
    expect(after.body.data).toMatchObject({ webhook: { enabled: true, last_status: 200, last_error: null, consecutive_failures: 0, failing_since: 0 } });
    // Each attempt is listed, newest first, with its status, event type and attempt number.
    const attempt = (n: number, status: number, at: number) => ({ at, event_id: stored!.event.id, type: 'device.added', attempt: n, ok: status === 200, status, error: status === 200 ? null : 'http_status' });
    const first = now - retryDelaySeconds(2) - retryDelaySeconds(1);
    expect((after.body.data as { webhook: { recent_deliveries: unknown[] } }).webhook.recent_deliveries).toEqual([
      attempt(3, 200, now),
      attempt(2, 503, now - retryDelaySeconds(2)),
      attempt(1, 503, first),
    ]);
  });

  test('the recent deliveries are bounded: the latest 20 shown, newest first, and the stored list cut back as it grows', async () => {
    const { userId } = await subscribedUser();
    const webhook = (await getWebhook(userId))!;
    const start = nowS();
    for (let i = 1; i <= 45; i++) {
      const ok = i % 3 !== 0;
      await recordDelivery(webhook, { at: start + i, event_id: `ev_${i}`, type: 'device.added', attempt: 1, ok, status: ok ? 200 : 500, error: ok ? null : 'http_status' }, RETRY_WINDOW_SECONDS);
      const stored = (await getWebhook(userId))!.recentDeliveries;
      expect(stored.length).toBeLessThan(RECENT_DELIVERIES_KEPT);
      expect(stored[0]!.event_id).toBe(`ev_${i}`);
    }
    const stored = (await getWebhook(userId))!.recentDeliveries;
    expect(stored.map((d) => d.event_id)).toEqual(Array.from({ length: stored.length }, (_, i) => `ev_${45 - i}`));
    const shown = webhookView((await getWebhook(userId))!).recent_deliveries;
    expect(shown.map((d) => d.event_id)).toEqual(Array.from({ length: 20 }, (_, i) => `ev_${45 - i}`));
    expect(shown[0]).toEqual({ at: start + 45, event_id: 'ev_45', type: 'device.added', attempt: 1, ok: false, status: 500, error: 'http_status' });
  });

  test('a receiver that always fails is disabled after 24 hours; GET says so; setting it again re-enables it', async () => {
    let now = nowS();
    restore = setClock(() => now * 1000);
    const { userId, token } = await subscribedUser();
    receiver.answer(500);
    expect((await add(bed.api, { token, udid: udid25() })).body.code).toBe(1);
    const start = now;
    let attempts = 0;
    let last: Record<string, number> = {};
    // From one due attempt to the next, as the retry job would find them.
    while (now <= start + RETRY_WINDOW_SECONDS + 3600 && attempts < 100) {
      last = await runDispatchPass(now);
      if (last.failed) break;
      if (last.retrying) attempts++;
      now += retryDelaySeconds(attempts) + 1;
    }
    expect(last).toMatchObject({ failed: 1 });
    expect(attempts).toBeGreaterThan(20);
    const shown = await bed.api.request('GET', '/api/user/webhook', { headers: bearer(token, 'es') });
    expect(shown.body.msg).toBe('El webhook se desactivó tras 24 horas de entregas fallidas; configúrelo de nuevo para reactivarlo');
    expect(shown.body.data).toMatchObject({ webhook: { enabled: false, last_status: 500, last_error: 'http_status', failing_since: start } });
    const webhook = (shown.body.data as { webhook: { disabled_at: number; consecutive_failures: number } }).webhook;
    expect(webhook.disabled_at).toBeGreaterThanOrEqual(start + RETRY_WINDOW_SECONDS);
    expect(webhook.consecutive_failures).toBe(attempts + 1);

    // Disabled: a new event is not sent (it stays in the feed).
    receiver.answer(200);
    expect((await add(bed.api, { token, udid: udid25() })).body.code).toBe(1);
    expect(await runDispatchPass(now)).toMatchObject({ skipped: 1, delivered: 0 });
    expect(mine(userId)).toEqual([]);
    expect(await feed(token)).toHaveLength(2);

    const again = await setWebhook(token, { url: receiver.url });
    expect(again.body).toMatchObject({ code: 1, msg: 'Webhook updated (the signing secret is unchanged)', data: { webhook: { enabled: true, consecutive_failures: 0 } } });
    expect(again.body.data).not.toHaveProperty('secret');
    expect((await add(bed.api, { token, udid: udid25() })).body.code).toBe(1);
    expect(await runDispatchPass(now)).toMatchObject({ delivered: 1 });
  }, 90_000);

  test('a crash between the state change and the delivery loses nothing: the event is delivered by a later pass', async () => {
    let now = nowS();
    restore = setClock(() => now * 1000);
    const { userId, token } = await subscribedUser();
    expect((await add(bed.api, { token, udid: udid25() })).body.code).toBe(1);
    // The dispatcher took the attempt and died before posting (or before recording the answer).
    const [stored] = await storedEventsOf(userId);
    expect(await claimEvent(stored!.key, stored!.deliveryDueAt!, now + ATTEMPT_LEASE_SECONDS)).toBe(true);
    expect(await runDispatchPass(now)).toMatchObject({ delivered: 0 });
    expect(mine(userId)).toEqual([]);
    now += ATTEMPT_LEASE_SECONDS + 1;
    expect(await runDispatchPass(now)).toMatchObject({ delivered: 1 });
    expect(mine(userId).map((d) => d.body.id)).toEqual([stored!.event.id]);
  });
});

test('the stream consumer delivers INSERT records, ignores the rest, and reports only the records that failed', async () => {
  const { userId, token } = await subscribedUser();
  expect((await add(bed.api, { token, udid: udid25() })).body.code).toBe(1);
  const out = await documentClient().send(new QueryCommand({ TableName: tableName('events'), KeyConditionExpression: 'user_id = :u', ExpressionAttributeValues: { ':u': userId } }));
  const image = marshall(out.Items![0]!, { removeUndefinedValues: true }) as Record<string, AttributeValue>;
  const record = (eventName: 'INSERT' | 'MODIFY', sequence: string, newImage: Record<string, AttributeValue> | undefined) => ({
    eventID: sequence,
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: { SequenceNumber: sequence, ...(newImage ? { NewImage: newImage as never } : {}) },
  });
  // A record DynamoDB cannot act on (an empty key): the dispatcher fails on it alone.
  const broken = { ...image, user_id: { S: '' } } as Record<string, AttributeValue>;
  const event = { Records: [record('MODIFY', '1', image), record('INSERT', '2', broken), record('INSERT', '3', image)] } as unknown as DynamoDBStreamEvent;
  const context = { functionName: 'event-dispatcher', awsRequestId: 'test', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;
  const answer = await streamHandler(event, context);
  expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
  expect(mine(userId)).toHaveLength(1);
});

test('webhook URLs that lead to private networks are refused when set, and deliveries to a name that resolves to one are refused by the fetch', async () => {
  const { userId, token } = await newUser();
  const saved = process.env.FETCH_ALLOW_PRIVATE;
  delete process.env.FETCH_ALLOW_PRIVATE;
  try {
    for (const url of ['http://hooks.example.com/x', 'https://127.0.0.1/hook', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://10.0.0.8/x', 'https://2130706433/', 'https://user:pw@hooks.example.com/x']) {
      const res = await setWebhook(token, { url });
      expect([url, res.status, res.body.code, (res.body.data as { fields?: string[] }).fields]).toEqual([url, 400, 40002, ['url']]);
    }
  } finally {
    process.env.FETCH_ALLOW_PRIVATE = saved;
  }
  // A public-looking name that resolves to loopback: the fetch refuses it after DNS, and GET says why.
  expect((await setWebhook(token, { url: receiver.url.replace('127.0.0.1', 'hooks.example.com') })).body.code).toBe(1);
  expect((await add(bed.api, { token, udid: udid25() })).body.code).toBe(1);
  expect(await runDispatchPass(nowS(), { fetch: { allowPrivate: false, resolve: () => Promise.resolve(['127.0.0.1']) } })).toMatchObject({ retrying: 1 });
  expect(mine(userId)).toEqual([]);
  const shown = await bed.api.request('GET', '/api/user/webhook', { headers: bearer(token) });
  expect(shown.body.data).toMatchObject({ webhook: { last_status: 0, last_error: 'address', consecutive_failures: 1 } });
});

test('the webhook routes: the secret once, ping, delete, and every bad value refused with the parameter named', async () => {
  const { userId, token } = await newUser();
  expect((await bed.api.request('GET', '/api/user/webhook', { headers: bearer(token) })).body.data).toEqual({ webhook: null, balance_low_threshold: 0 });
  const noHook = await bed.api.request('POST', '/api/user/webhook/test', { headers: bearer(token, 'ru') });
  expect(noHook.body).toMatchObject({ code: 40003, msg: 'Webhook не настроен', data: { error: 'webhook_not_set' } });

  const created = await setWebhook(token, { url: receiver.url, events: 'device.added, device.revoked' }, 'zh');
  expect(created.body).toMatchObject({ code: 1, msg: 'Webhook 已设置。请立即保存签名密钥：它不会再次显示', data: { webhook: { url: receiver.url, events: ['device.added', 'device.revoked'], enabled: true } } });
  const secret = (created.body.data as { secret: string }).secret;
  expect(secret).toMatch(/^whsec_/);
  const shown = await bed.api.request('GET', '/api/user/webhook', { headers: bearer(token) });
  expect(JSON.stringify(shown.body)).not.toContain(secret);
  const rotated = await setWebhook(token, { url: receiver.url, rotate_secret: true });
  const newSecret = (rotated.body.data as { secret: string }).secret;
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(secret);

  const ping = await bed.api.request('POST', '/api/user/webhook/test', { headers: bearer(token) });
  expect(ping.body).toMatchObject({ code: 1, msg: 'Test event delivered (HTTP 200)', data: { ok: true, status: 200, error: null } });
  const [delivered] = mine(userId, 'ping');
  expect(delivered!.body.id).toBe((ping.body.data as { event_id: string }).event_id);
  expect(readmeVerifier()(delivered!.raw, delivered!.headers['x-signature'], newSecret)).toBe(true);

  const bad: Array<[Record<string, unknown>, string]> = [
    [{}, 'url'],
    [{ url: 'ftp://hooks.example.com/x' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: `https://hooks.example.com/${'a'.repeat(2048)}` }, 'url'],
    [{ url: receiver.url, events: ['device.added', 'device.exploded'] }, 'events'],
    [{ url: receiver.url, events: [] }, 'events'],
    [{ url: receiver.url, events: 'ping' }, 'events'],
    [{ url: receiver.url, events: { a: 1 } }, 'events'],
    [{ url: receiver.url, rotate_secret: 'maybe' }, 'rotate_secret'],
    [{ url: receiver.url, balance_low_threshold: -1 }, 'balance_low_threshold'],
    [{ url: receiver.url, balance_low_threshold: 1.5 }, 'balance_low_threshold'],
    [{ url: receiver.url, balance_low_threshold: '10x' }, 'balance_low_threshold'],
    [{ url: receiver.url, balance_low_threshold: 1_000_000_001 }, 'balance_low_threshold'],
    [{ url: receiver.url, secret: 'mine' }, 'secret'],
    [{ url: 'https://hooks.example.com/\u0000' }, 'url'],
  ];
  for (const [body, field] of bad) {
    const res = await setWebhook(token, body);
    expect([body, res.status, res.body.code, (res.body.data as { fields?: string[] }).fields]).toEqual([body, 400, 40002, [field]]);
  }
  expect((await bed.api.request('GET', '/api/user/webhook?x=1', { headers: bearer(token) })).body).toMatchObject({ code: 40002, data: { fields: ['x'] } });
  // Nothing the refusals carried was stored.
  expect((await bed.api.request('GET', '/api/user/webhook', { headers: bearer(token) })).body.data).toMatchObject({ webhook: { url: receiver.url, events: expect.arrayContaining(['device.added', 'balance.low']) as unknown }, balance_low_threshold: 0 });

  const deleted = await bed.api.request('DELETE', '/api/user/webhook', { headers: bearer(token, 'vi') });
  expect(deleted.body).toMatchObject({ code: 1, msg: 'Đã xóa webhook', data: { deleted: true } });
  expect((await bed.api.request('DELETE', '/api/user/webhook', { headers: bearer(token) })).body).toMatchObject({ code: 1, msg: 'No webhook is set', data: { deleted: false } });
  expect((await bed.api.request('GET', '/api/user/webhook', { headers: bearer(token) })).body.data).toMatchObject({ webhook: null });
  expect((await bed.api.request('GET', '/api/user/webhook')).body).toMatchObject({ code: 10 });
});

test('the events feed pages oldest first, one cursor after another, filters by type, and refuses bad parameters', async () => {
  const { userId, token } = await subscribedUser();
  for (let i = 0; i < 3; i++) expect((await add(bed.api, { token, udid: udid25() })).body.code).toBe(1);
  const all = await storedEventsOf(userId);
  expect(all).toHaveLength(3);

  const seen: string[] = [];
  let after = '';
  for (let page = 0; page < 5; page++) {
    const res = await bed.api.request('GET', `/api/user/events?limit=2${after ? `&after=${after}` : ''}`, { headers: bearer(token) });
    const data = res.body.data as { events: Array<{ id: string; created: number }>; next_cursor: string; has_more: boolean };
    seen.push(...data.events.map((e) => e.id).filter((id) => !seen.includes(id)));
    after = data.next_cursor;
    if (!data.has_more) break;
  }
  expect(seen).toEqual(all.map((e) => e.event.id));
  const byPost = await bed.api.request('POST', '/api/user/events', { headers: bearer(token), json: { types: ['device.revoked'] } });
  expect(byPost.body.data).toMatchObject({ events: [], has_more: false });
  expect((await feed(token, '&types=device.added,balance.low')).map((e) => e.id)).toEqual(all.map((e) => e.event.id));
  // A cursor of a second: events from then on.
  expect(await feed(token, `&after=${String(all[0]!.event.created + 3600)}`)).toEqual([]);

  for (const [query, field] of [
    ['after=garbage', 'after'],
    ['after=1795317900_ev_%00', 'after'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=1x', 'limit'],
    ['types=device.exploded', 'types'],
    ['kind=x', 'kind'],
  ] as const) {
    const res = await bed.api.request('GET', `/api/user/events?${query}`, { headers: bearer(token, 'ar') });
    expect([query, res.status, res.body.code, (res.body.data as { fields?: string[] }).fields]).toEqual([query, 400, 40002, [field]]);
  }
  // Another user sees only their own.
  const other = await newUser();
  expect(await feed(other.token)).toEqual([]);
});
