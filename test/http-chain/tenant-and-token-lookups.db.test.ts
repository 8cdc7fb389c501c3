/**
 * The keyed lookups of the request path: a token is one strongly consistent GetItem on its hash (a rotated
 * token is refused at once), the tenant of a Host one GetItem cached per container, hits and misses alike,
 * for TENANT_CACHE_SECONDS; and the one-off backfill for data written before these lookups existed.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { instrumentDynamoDb, sample } from '../bench/harness';
import { createEveryTable, useIsolatedTables } from '../support/tables';
import { makeTenant } from '../support/fixtures';
import { setClock } from '../../shared/clock';
import { documentClient } from '../../shared/db/client';
import { backfillLookups } from '../../shared/db/repositories/lookup-backfill';
import { tableName } from '../../shared/db/table-names';
import { DomainError } from '../../shared/domain/errors';
import { clearTenantCache, resolveTenantByHost } from '../../shared/domain/tenants/host-tenant';
import { changeTenantSettings, createTenant } from '../../shared/domain/tenants/tenant-service';
import { authenticate } from '../../shared/domain/users/authentication';
import { hashToken } from '../../shared/domain/users/tokens';
import { createUser, expireToken, rotateToken } from '../../shared/domain/users/user-service';

const NOW = 1_700_000_000;
let restoreClock: () => void = () => undefined;
let now = NOW * 1000;

beforeAll(async () => {
  await useIsolatedTables();
  await createEveryTable(); // its round trips are counted
  instrumentDynamoDb();
});
beforeEach(() => {
  process.env.TENANT_CACHE_SECONDS = '30';
  clearTenantCache();
  now = NOW * 1000;
  restoreClock = setClock(() => now);
});
afterEach(() => restoreClock());
afterAll(() => {
  process.env.TENANT_CACHE_SECONDS = '0';
});

const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => (e instanceof DomainError ? e.kind : e));

async function callCount(run: () => Promise<unknown>): Promise<number> {
  return (await sample(async () => void (await run()))).calls.length;
}

describe('tokens', () => {
  test('a token is one strongly consistent GetItem keyed by its hash', async () => {
    const { user, token } = await createUser({ tenantId: 'default', name: 't' }, NOW);
    const taken = await sample(async () => {
      expect((await authenticate(token, NOW)).userId).toBe(user.userId);
    });
    expect(taken.calls.map((c) => `${c.table} ${c.command}`)).toEqual([`${tableName('tokens')} GetItem`]);
  });

  test('a rotated token is refused at once and the new one works', async () => {
    const { user, token } = await createUser({ tenantId: 'default', name: 't' }, NOW);
    const next = await rotateToken(user.userId);
    expect(await refusal(authenticate(token, NOW))).toBe('token_invalid');
    expect((await authenticate(next, NOW)).userId).toBe(user.userId);
  });

  test('an expired token is told apart, and a rotation clears the expiry', async () => {
    const { user, token } = await createUser({ tenantId: 'default', name: 't' }, NOW);
    await expireToken(user.userId, NOW);
    expect(await refusal(authenticate(token, NOW))).toBe('token_expired');
    expect((await authenticate(token, NOW - 1)).userId).toBe(user.userId);
    const next = await rotateToken(user.userId);
    expect((await authenticate(next, NOW + 10_000)).tokenExpiresAt).toBeUndefined();
  });
});

describe('tenant of a Host', () => {
  test('found: one GetItem, then served from the cache until TENANT_CACHE_SECONDS pass', async () => {
    const { tenantId, host } = await makeTenant('en');
    expect(await callCount(() => resolveTenantByHost(host))).toBe(1);
    await changeTenantSettings(tenantId, { defaultLang: 'ru' });
    now += 29_000;
    const hit = await sample(async () => {
      expect((await resolveTenantByHost(`${host.toUpperCase()}:443`)).defaultLang).toBe('en');
    });
    expect(hit.calls).toHaveLength(0);
    now += 2_000;
    expect((await resolveTenantByHost(host)).defaultLang).toBe('ru');
  });

  test('not found: the default tenant, cached too, so a new domain is seen once the entry expires', async () => {
    const host = `later-${NOW}-${Math.random().toString(36).slice(2, 8)}.example.com`;
    expect((await resolveTenantByHost(host)).tenantId).toBe('default');
    expect(await callCount(() => resolveTenantByHost(host))).toBe(0);
    const tenant = await createTenant({ name: 'Later', domain: host }, NOW);
    expect((await resolveTenantByHost(host)).tenantId).toBe('default');
    now += 30_001;
    expect((await resolveTenantByHost(host)).tenantId).toBe(tenant.tenantId);
  });

  test('TENANT_CACHE_SECONDS=0 reads DynamoDB on every request', async () => {
    process.env.TENANT_CACHE_SECONDS = '0';
    const { host } = await makeTenant('en');
    expect(await callCount(() => resolveTenantByHost(host))).toBe(1);
    expect(await callCount(() => resolveTenantByHost(host))).toBe(1);
  });

  test('a Host longer than any DNS name belongs to the default tenant without a lookup of its own', async () => {
    await resolveTenantByHost(undefined);
    expect(await callCount(async () => expect((await resolveTenantByHost(`${'a'.repeat(300)}.example.com`)).tenantId).toBe('default'))).toBe(0);
  });

  test('a domain already owned is refused', async () => {
    const { host } = await makeTenant('en');
    await expect(createTenant({ name: 'Twin', domain: host }, NOW)).rejects.toThrow(/already belongs/);
  });
});

test('the backfill writes token items and host copies for data from before the keyed lookups', async () => {
  const { user, token } = await createUser({ tenantId: 'default', name: 'old' }, NOW);
  const { tenantId, host } = await makeTenant('vi');
  // What a stack deployed before this change holds: users and tenants without their keyed copies.
  await documentClient().send(new DeleteCommand({ TableName: tableName('tokens'), Key: { token_hash: hashToken(token) } }));
  await documentClient().send(new DeleteCommand({ TableName: tableName('tenantHosts'), Key: { host } }));
  process.env.TENANT_CACHE_SECONDS = '0';
  expect(await refusal(authenticate(token, NOW))).toBe('token_invalid');
  expect((await resolveTenantByHost(host)).tenantId).toBe('default');

  const counts = await backfillLookups();
  expect(counts.tokens).toBeGreaterThanOrEqual(1);
  expect(counts.hosts).toBeGreaterThanOrEqual(1);
  expect((await authenticate(token, NOW)).userId).toBe(user.userId);
  expect((await resolveTenantByHost(host)).tenantId).toBe(tenantId);
  // Again: nothing new to write for tokens, and the host copies are rewritten from their tenants.
  expect((await backfillLookups()).tokens).toBe(0);
});
