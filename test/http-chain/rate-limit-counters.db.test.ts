import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { useIsolatedTables } from '../support/tables';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { bucketKey, chargeIpLimit, chargeRequest, ipBucketKey } from '../../shared/http/middlewares/rate-limit';
import { minuteWindow } from '../../shared/limit-windows';
import type { RouteDefinition } from '../../shared/routes';

beforeAll(async () => {
  await useIsolatedTables();
});

const minute = Date.UTC(2031, 5, 1, 8, 30);
const route = { function: 'unit-route', rateLimit: 5 } as RouteDefinition & { rateLimit: number };

describe('minuteWindow', () => {
  test('the first and last millisecond of a minute share a window; the next millisecond starts another', () => {
    const first = minuteWindow(minute);
    const last = minuteWindow(minute + 59_999);
    const next = minuteWindow(minute + 60_000);
    expect(first.id).toBe('2031-06-01T08:30Z');
    expect(last.id).toBe(first.id);
    expect(next.id).toBe('2031-06-01T08:31Z');
    expect(first.resetAt).toBe(minute / 1000 + 60);
    expect(next.resetAt).toBe(minute / 1000 + 120);
  });

  test('Retry-After rounds up and is never 0', () => {
    expect(minuteWindow(minute).retryAfter).toBe(60);
    expect(minuteWindow(minute + 500).retryAfter).toBe(60);
    expect(minuteWindow(minute + 59_001).retryAfter).toBe(1);
    expect(minuteWindow(minute + 59_999).retryAfter).toBe(1);
  });
});

describe('bucketKey', () => {
  test('users and IPs never share a bucket, and the route and minute are part of the key', () => {
    const w = minuteWindow(minute);
    expect(bucketKey(route, { user: 'u_1' }, w)).toBe('unit-route#user:u_1#2031-06-01T08:30Z');
    expect(bucketKey(route, { ip: 'u_1' }, w)).toBe('unit-route#ip:u_1#2031-06-01T08:30Z');
  });
});

describe('chargeRequest on DynamoDB', () => {
  test('allows up to the limit, then refuses; refused requests only push the counter past the limit', async () => {
    const owner = { user: 'u_sequential' };
    const decisions = [];
    for (let i = 0; i < 7; i++) decisions.push(await chargeRequest(route, owner, minute + i));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 4],
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    const item = await documentClient().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { bucket: bucketKey(route, owner, minuteWindow(minute)) } }));
    expect(item.Item).toMatchObject({ count: 7 });
    // TTL only sweeps: the item outlives its minute.
    expect(item.Item?.expires_at).toBeGreaterThan(minute / 1000 + 60);
  });

  test('concurrent requests take exactly the limit', async () => {
    const owner = { user: 'u_concurrent' };
    const decisions = await Promise.all(Array.from({ length: 20 }, () => chargeRequest(route, owner, minute)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
  });

  test('an unreachable table is an `unavailable` error, not an allowed request', async () => {
    const saved = process.env.TABLE_RATE_LIMITS;
    process.env.TABLE_RATE_LIMITS = 'missing-rate-limit-table';
    try {
      await expect(chargeRequest(route, { user: 'u_x' }, minute)).rejects.toMatchObject({ kind: 'unavailable', reason: 'rate_limit_unavailable' });
    } finally {
      if (saved === undefined) delete process.env.TABLE_RATE_LIMITS;
      else process.env.TABLE_RATE_LIMITS = saved;
    }
  });
});

describe('per-IP limits of public routes', () => {
  const hourly = { limit: 2, window: 'hour', perPathParam: 'source_id' } as const;

  test('an hourly limit counts per IP and per path parameter for the whole calendar hour', async () => {
    const hour = Date.UTC(2031, 5, 1, 9, 0);
    const at = (ms: number, ip = '198.51.100.7', source = 's1') => chargeIpLimit(route, hourly, ip, { source_id: source }, hour + ms);
    expect((await at(0)).allowed).toBe(true);
    expect((await at(30 * 60_000)).allowed).toBe(true);
    const refused = await at(59 * 60_000);
    expect(refused).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    expect(refused.window.resetAt).toBe(hour / 1000 + 3600);
    expect((await at(59 * 60_000, '198.51.100.8')).allowed).toBe(true);
    expect((await at(59 * 60_000, '198.51.100.7', 's2')).allowed).toBe(true);
    expect((await at(60 * 60_000)).allowed).toBe(true);
  });

  test('bucket keys name the window kind, the IP and the path parameter', () => {
    const now = Date.UTC(2031, 5, 1, 9, 17, 5);
    expect(ipBucketKey(route, hourly, '198.51.100.7', { source_id: 's1' }, now)).toBe('unit-route#hour#ip:198.51.100.7#source_id:s1#2031-06-01T09:00Z');
    expect(ipBucketKey(route, { limit: 600, window: 'minute' }, '198.51.100.7', {}, now)).toBe('unit-route#minute#ip:198.51.100.7#2031-06-01T09:17Z');
  });
});
