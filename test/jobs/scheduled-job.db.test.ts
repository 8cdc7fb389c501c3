import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { withLease } from '../../shared/jobs/lease';
import { leaseKeyOf, scheduledJob } from '../../shared/jobs/scheduled-job';
import { useIsolatedTables } from '../support/tables';

beforeAll(async () => {
  await useIsolatedTables();
});

const lease = (key: string) => documentClient().send(new GetCommand({ TableName: tableName('leases'), Key: { lease_key: key }, ConsistentRead: true }));

describe('withLease', () => {
  test('of two concurrent holders of one name exactly one runs; the lease is free again afterwards', async () => {
    let running = 0;
    let maxRunning = 0;
    const work = async () => {
      maxRunning = Math.max(maxRunning, ++running);
      await new Promise((resolve) => setTimeout(resolve, 200));
      running--;
      return 'done';
    };
    const outcomes = await Promise.all([withLease('unit#a', 60, work), withLease('unit#a', 60, work), withLease('unit#a', 60, work)]);
    expect(outcomes.filter((o) => o.ran)).toEqual([{ ran: true, result: 'done' }]);
    expect(maxRunning).toBe(1);
    expect((await lease('unit#a')).Item).toBeUndefined();
    expect(await withLease('unit#a', 60, async () => 1)).toEqual({ ran: true, result: 1 });
  });

  test('a lease left by a holder that died is taken over once it expires, not before', async () => {
    const now = Math.floor(Date.now() / 1000);
    const put = (expiresAt: number) =>
      documentClient().send(new PutCommand({ TableName: tableName('leases'), Item: { lease_key: 'unit#b', owner: 'dead', acquired_at: now - 100, expires_at: expiresAt } }));
    await put(now + 60);
    expect(await withLease('unit#b', 60, async () => 1)).toEqual({ ran: false });
    await put(now - 1);
    expect(await withLease('unit#b', 60, async () => 1)).toEqual({ ran: true, result: 1 });
  });

  test('the lease is released when the work throws', async () => {
    await expect(withLease('unit#c', 60, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect((await lease('unit#c')).Item).toBeUndefined();
  });
});

describe('scheduledJob', () => {
  const context = (remainingMs: number) => ({ getRemainingTimeInMillis: () => remainingMs });

  test('the work gets the remaining time minus a safety margin, and the lease lasts as long as Lambda lets the run live', async () => {
    let seen: { budgetMs: number; expiresIn: number } | undefined;
    const handler = scheduledJob('unit-job', async ({ budgetMs }) => {
      const item = (await lease(leaseKeyOf('unit-job'))).Item!;
      seen = { budgetMs, expiresIn: (item.expires_at as number) - Math.floor(Date.now() / 1000) };
      return { checked: 3 };
    });
    expect(await handler({}, context(90_000))).toEqual({ checked: 3 });
    expect(seen!.budgetMs).toBe(70_000);
    expect(seen!.expiresIn).toBeGreaterThanOrEqual(94);
    expect(seen!.expiresIn).toBeLessThanOrEqual(95);
  });

  test('a run that starts while another holds the lease skips without touching the work', async () => {
    let calls = 0;
    const handler = scheduledJob('unit-overlap', async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return 'ran';
    });
    const [first, second] = await Promise.all([handler({}, context(60_000)), new Promise((r) => setTimeout(r, 50)).then(() => handler({}, context(60_000)))]);
    expect(first).toBe('ran');
    expect(second).toEqual({ skipped: true });
    expect(calls).toBe(1);
  });

  test('a failing run rethrows (so Lambda sends it to the failure queue) and frees the lease', async () => {
    const handler = scheduledJob('unit-fail', () => Promise.reject(new Error('Apple down')));
    await expect(handler({}, context(60_000))).rejects.toThrow('Apple down');
    expect((await lease(leaseKeyOf('unit-fail'))).Item).toBeUndefined();
  });
});
