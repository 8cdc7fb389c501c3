/**
 * Device info counts the owner it remembers for a credential beside the credential's read (issue 41,
 * shared/http/owner-count-ahead.ts). What a caller sees must not change: a credential that no longer holds is
 * not answered and its speculative count does not stand against the owner (the IP is counted instead), the
 * count stays exact, and the limiter failing still answers 503 with nothing from the device.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startTestApi, type ApiResponse, type TestApi } from '../support/api';
import { makeOwner, newUdid, type Owner } from '../support/fixtures';
import { importDevice } from '../../shared/domain/devices/device-import';
import { bucketKey } from '../../shared/http/middlewares/rate-limit';
import { minuteWindow } from '../../shared/limit-windows';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { hashToken } from '../../shared/domain/users/tokens';
import { setClock } from '../../shared/clock';
import { deviceInfoRoute } from '../../shared/routes/devices';
import { admin } from '../support/admin-cli';

let api: TestApi;
let restoreClock: () => void = () => undefined;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  restoreClock();
  await api.close();
});

/** Each test in calendar minutes of its own (every request comes from 127.0.0.1, so the IP's counter is shared). */
let slot = 0;
function freshMinute(): number {
  const start = Date.UTC(2033, 0, 1) + ++slot * 10 * 60_000 + 5_000;
  restoreClock = setClock(() => start);
  return start;
}

async function counter(owner: { user: string } | { ip: string }, nowMs: number): Promise<number> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('rateLimits'), Key: { bucket: bucketKey(deviceInfoRoute, owner, minuteWindow(nowMs)) }, ConsistentRead: true }));
  return Number(out.Item?.count ?? 0);
}

const info = (owner: Owner, kid: string): Promise<ApiResponse> => api.request('GET', `/api/device/info?token=${encodeURIComponent(owner.token)}&kid=${kid}`);

async function ownerWithDevice(): Promise<{ owner: Owner; kid: string; udid: string }> {
  const owner = await makeOwner();
  const device = await importDevice({ userId: owner.user.userId, udid: newUdid() }, 1_700_000_000);
  return { owner, kid: device.kid, udid: device.udid };
}

test('the remembered owner is counted exactly: each request told its own remaining count', async () => {
  const now = freshMinute();
  const { owner, kid } = await ownerWithDevice();
  const remaining: Array<string | null> = [];
  for (let i = 0; i < 3; i++) {
    const res = await info(owner, kid);
    expect(res.body.code).toBe(1);
    remaining.push(res.headers.get('x-ratelimit-remaining'));
  }
  expect(remaining).toEqual(['119', '118', '117']);
  expect(await counter({ user: owner.user.userId }, now)).toBe(3);
});

test('a token revoked after the instance remembered it: not answered, the owner’s count unchanged, the IP counted', async () => {
  const now = freshMinute();
  const { owner, kid, udid } = await ownerWithDevice();
  expect((await info(owner, kid)).body.code).toBe(1);
  await documentClient().send(new DeleteCommand({ TableName: tableName('tokens'), Key: { token_hash: hashToken(owner.token) } }));
  const ipBefore = await counter({ ip: '127.0.0.1' }, now);

  const res = await info(owner, kid);
  expect(res.body).toMatchObject({ code: 10 });
  expect(JSON.stringify(res.body)).not.toContain(udid);
  expect(await counter({ user: owner.user.userId }, now)).toBe(1);
  expect(await counter({ ip: '127.0.0.1' }, now)).toBe(ipBefore + 1);
  // Forgotten: the next attempt counts nothing against the owner either.
  expect((await info(owner, kid)).body.code).toBe(10);
  expect(await counter({ user: owner.user.userId }, now)).toBe(1);
});

test('a token expired after the instance remembered it: the same', async () => {
  const now = freshMinute();
  const { owner, kid, udid } = await ownerWithDevice();
  expect((await info(owner, kid)).body.code).toBe(1);
  await documentClient().send(
    new UpdateCommand({ TableName: tableName('tokens'), Key: { token_hash: hashToken(owner.token) }, UpdateExpression: 'SET expires_at = :past', ExpressionAttributeValues: { ':past': Math.floor(now / 1000) - 1 } }),
  );
  const ipBefore = await counter({ ip: '127.0.0.1' }, now);
  const res = await info(owner, kid);
  expect(res.body).toMatchObject({ code: 10 });
  expect(JSON.stringify(res.body)).not.toContain(udid);
  expect(await counter({ user: owner.user.userId }, now)).toBe(1);
  expect(await counter({ ip: '127.0.0.1' }, now)).toBe(ipBefore + 1);
});

test('a remembered owner at the limit is refused, and another owner’s device is still not answered', async () => {
  const now = freshMinute();
  const { owner, kid } = await ownerWithDevice();
  const other = await ownerWithDevice();
  expect((await info(owner, kid)).body.code).toBe(1);
  // Another owner's kid, read in the same batch: ownership is still checked before anything is answered.
  const foreign = await info(owner, other.kid);
  expect(foreign.body).toMatchObject({ code: 100 });
  expect(JSON.stringify(foreign.body)).not.toContain(other.udid);
  await documentClient().send(
    new UpdateCommand({ TableName: tableName('rateLimits'), Key: { bucket: bucketKey(deviceInfoRoute, { user: owner.user.userId }, minuteWindow(now)) }, UpdateExpression: 'SET #count = :n', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':n': 120 } }),
  );
  const refused = await info(owner, kid);
  expect(refused.status).toBe(429);
  expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
});

test('the limiter unreachable on a remembered token: 503, nothing from the device (fail closed)', async () => {
  freshMinute();
  const { owner, kid, udid } = await ownerWithDevice();
  expect((await info(owner, kid)).body.code).toBe(1);
  const saved = process.env.TABLE_RATE_LIMITS;
  process.env.TABLE_RATE_LIMITS = 'no-such-rate-limit-table';
  try {
    const res = await info(owner, kid);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ data: { error: 'rate_limit_unavailable' } });
    expect(JSON.stringify(res.body)).not.toContain(udid);
  } finally {
    if (saved === undefined) delete process.env.TABLE_RATE_LIMITS;
    else process.env.TABLE_RATE_LIMITS = saved;
  }
});

test('a console session remembered, then a write without its CSRF token: refused (403), the owner’s count given back', async () => {
  const now = freshMinute();
  const { owner, kid, udid } = await ownerWithDevice();
  const login = `ahead-${owner.user.userId}`;
  await admin('user', 'set-password', '--user', owner.user.userId, '--password', 'counted ahead', '--login', login);
  const signedIn = await api.request('POST', '/api/user/session', { json: { action: 'sign_in', login, password: 'counted ahead' } });
  const cookie = `console_session=${/console_session=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')![1]!}`;
  expect((await api.request('GET', `/api/device/info?kid=${kid}`, { headers: { Cookie: cookie } })).body.code).toBe(1);
  const refused = await api.request('POST', '/api/device/info', { headers: { Cookie: cookie }, json: { kid } });
  expect(refused.status).toBe(403);
  expect(JSON.stringify(refused.body)).not.toContain(udid);
  expect(await counter({ user: owner.user.userId }, now)).toBe(1);
});
