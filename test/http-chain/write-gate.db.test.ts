/**
 * Routes counted alongside their reads (`limitAlongside`): the count runs while the business code reads, and
 * the write gate holds every write until the count is in. A refused request, or one the limiter cannot count,
 * must change nothing — no status flipped, no app published, no lock, hold, charge or certificate.
 * Device status counts in its transaction instead (`countInTransaction`): the counter's conditional update rides
 * in the transaction that sets the certificate, so a refusal changes nothing, not even the counter.
 */
import { add, balanceOf, newUser, simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { makeDraft, makeOwner, newUdid } from '../support/fixtures';
import { importDevice } from '../../shared/domain/devices/device-import';
import { getDeviceRecord, listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { getApp } from '../../shared/db/repositories/app-repository';
import { setClock } from '../../shared/clock';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { bucketKey } from '../../shared/http/middlewares/rate-limit';
import { minuteWindow } from '../../shared/limit-windows';
import { addDeviceRoute, deviceInfoRoute, deviceStatusRoute, publishAppRoute } from '../../shared/routes';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
  await simulatedAccount(bed.sim, { mode: 'instant' });
});
afterAll(async () => bed.close());

/** Runs `work` with the rate-limit table unreachable (a limiter outage). */
async function withLimiterDown<T>(work: () => Promise<T>): Promise<T> {
  const saved = process.env.TABLE_RATE_LIMITS;
  process.env.TABLE_RATE_LIMITS = 'no-such-rate-limit-table';
  try {
    return await work();
  } finally {
    if (saved === undefined) delete process.env.TABLE_RATE_LIMITS;
    else process.env.TABLE_RATE_LIMITS = saved;
  }
}

/** Every request of `work` in one calendar minute of its own (the clock frozen in it). */
let slot = 0;
let frozenAt = 0;
const now = () => frozenAt;
async function inOneMinute<T>(work: () => Promise<T>): Promise<T> {
  const frozen = (frozenAt = Date.UTC(2032, 0, 1) + ++slot * 10 * 60_000 + 5_000);
  const restore = setClock(() => frozen);
  try {
    return await work();
  } finally {
    restore();
  }
}

test('the routes under test are the ones counted alongside', () => {
  for (const route of [deviceInfoRoute, publishAppRoute, addDeviceRoute]) expect(route).toMatchObject({ limitAlongside: true });
  expect(deviceStatusRoute).toMatchObject({ countInTransaction: true });
});

describe('device status', () => {
  const status = (token: string, kid: string, action: string) => bed.api.request('GET', `/api/device/status?token=${encodeURIComponent(token)}&kid=${kid}&action=${action}`);

  test('the 61st toggle of a minute answers 429 and flips nothing', async () => {
    const owner = await makeOwner();
    const { kid } = await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000);
    await inOneMinute(async () => {
      for (let i = 0; i < 60; i++) expect((await status(owner.token, kid, 'toggle')).body.code).toBe(1);
      const before = (await getDeviceRecord(kid))!.enabled;
      const refused = await status(owner.token, kid, 'toggle');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 429, data: { error: 'rate_limited' } });
      expect((await getDeviceRecord(kid))!.enabled).toBe(before);
    });
  });

  test('counted in its transaction: a counter spent elsewhere (this instance expected less) refuses the toggle, and neither the certificate nor the counter moves', async () => {
    const owner = await makeOwner();
    const { kid } = await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000);
    await inOneMinute(async () => {
      expect((await status(owner.token, kid, 'toggle')).headers.get('x-ratelimit-remaining')).toBe('59');
      // Another instance counted 59 more: this one still expects 1.
      const bucket = bucketKey(deviceStatusRoute, { user: owner.user.userId }, minuteWindow(now()));
      await documentClient().send(new UpdateCommand({ TableName: tableName('rateLimits'), Key: { bucket }, UpdateExpression: 'ADD #c :n', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':n': 59 } }));
      const before = (await getDeviceRecord(kid))!.enabled;
      const refused = await status(owner.token, kid, 'toggle');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect((await getDeviceRecord(kid))!.enabled).toBe(before);
      const counter = await documentClient().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { bucket }, ConsistentRead: true }));
      expect(counter.Item?.count).toBe(60);
    });
  });

  test('counted in its transaction: 70 concurrent toggles flip exactly 60 times, each success told its own remaining count', async () => {
    const owner = await makeOwner();
    const { kid } = await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000);
    const before = (await getDeviceRecord(kid))!.enabled;
    await inOneMinute(async () => {
      const all = await Promise.all(Array.from({ length: 70 }, () => status(owner.token, kid, 'toggle')));
      const ok = all.filter((r) => r.status === 200);
      expect(ok).toHaveLength(60);
      expect(all.filter((r) => r.status === 429)).toHaveLength(10);
      expect(ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
      // 60 flips: an even number, back where it started.
      expect((await getDeviceRecord(kid))!.enabled).toBe(before);
    });
  });

  test('a limiter outage answers 503 and changes nothing (fail closed)', async () => {
    const owner = await makeOwner();
    const { kid } = await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000);
    const before = (await getDeviceRecord(kid))!.enabled;
    const res = await withLimiterDown(() => status(owner.token, kid, before ? 'disable' : 'enable'));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 500, data: { error: 'rate_limit_unavailable' } });
    expect((await getDeviceRecord(kid))!.enabled).toBe(before);
  });
});

test('publish: a limiter outage answers 503 and the draft stays a draft', async () => {
  const owner = await makeOwner();
  const draft = await makeDraft(owner.source.source_id, { name: 'Gated', version: '1.0.0' });
  const res = await withLimiterDown(() => bed.api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${draft.id}/publish`, { headers: owner.bearer }));
  expect(res.status).toBe(503);
  expect((await getApp(owner.source.source_id, draft.id))!.publish_status).toBe('draft');
});

describe('the add', () => {
  test('a limiter outage answers 503 and takes nothing: no charge, no certificate, no lock left behind', async () => {
    const { userId, token } = await newUser();
    const udid = udid25();
    const balance = await balanceOf(userId);
    const res = await withLimiterDown(() => add(bed.api, { token, udid }));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 0, data: { error: 'rate_limit_unavailable' } });
    expect(await balanceOf(userId)).toBe(balance);
    expect(await listDevicesByUserUdid(userId, udid)).toEqual([]);
    // No lock was taken: the same add, counted now, goes through at once and charges once.
    const ok = await add(bed.api, { token, udid });
    expect(ok.body.code).toBe(1);
    expect(await listDevicesByUserUdid(userId, udid)).toHaveLength(1);
    expect(await balanceOf(userId)).toBeLessThan(balance);
  });

  test('the 61st add of a minute (a new UDID after 60 repeated adds) answers 429 and takes nothing', async () => {
    const { userId, token } = await newUser();
    const first = udid25();
    expect((await add(bed.api, { token, udid: first })).body.code).toBe(1);
    const balance = await balanceOf(userId);
    await inOneMinute(async () => {
      for (let i = 0; i < 60; i++) expect((await add(bed.api, { token, udid: first })).body.code).toBe(1);
      const udid = udid25();
      const refused = await add(bed.api, { token, udid });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 0, data: { error: 'rate_limited' } });
      expect(await balanceOf(userId)).toBe(balance);
      expect(await listDevicesByUserUdid(userId, udid)).toEqual([]);
    });
  });
});
