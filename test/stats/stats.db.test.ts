/**
 * `/api/user/stats` on DynamoDB Local and the App Store Connect simulator: the figures after adds, failed
 * (refunded) adds, across a UTC day and month boundary (the product's clock moved), an agent chain's figures and
 * the refusal of anyone else's agent, expiring certificates, the bounded number of DynamoDB calls, and `ledger
 * check` catching a tally that disagrees with the ledger.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { nowSeconds, setClock } from '../../shared/clock';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { checkLedger } from '../../shared/domain/ledger/reconcile';
import { tallyKey } from '../../shared/records/ledger-tally';
import { simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import { makeTenant, makeUser, storedDevice } from '../support/fixtures';
import { expectLedgerAddsUp } from '../support/ledger';
import { admin } from '../support/admin-cli';
import type { ApiResponse } from '../support/api';
import { addBy, chainShop, createAgent, topUp, type Chain, type Member } from '../agents/agent-support';

let bed: Testbed;
// "Today" is a UTC day: the product's clock runs from noon of the next one, so no test here straddles midnight
// by chance (the boundary test moves it on purpose).
const NOON = (() => {
  const at = new Date();
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1, 12);
})();
let restoreClock: () => void;
beforeAll(async () => {
  bed = await startTestbed();
  const offset = NOON - Date.now();
  restoreClock = setClock(() => Date.now() + offset);
});
afterAll(async () => {
  restoreClock();
  await bed.close();
});

const nowS = () => nowSeconds();

async function shop(balance: number) {
  const { tenantId, host } = await makeTenant('en');
  const { user, token } = await makeUser({ tenantId, balance });
  const { team } = await simulatedAccount(bed.sim, { mode: 'instant', tenantId });
  return { tenantId, host, userId: user.userId, token, teamId: team.teamId };
}
type Shop = Awaited<ReturnType<typeof shop>>;

const stats = (s: { host: string; token: string }, query = '', lang = 'en'): Promise<ApiResponse> =>
  bed.api.request('GET', `/api/user/stats${query}`, { headers: { Host: s.host, 'X-Lang': lang, Authorization: `Bearer ${s.token}` } });

const add = (s: Shop, udid = udid25()) => bed.api.request('POST', '/api/adddevice/v2', { headers: { Host: s.host, 'X-Lang': 'en' }, json: { token: s.token, udid } });

type Figures = { adds: number; refunds: number; spend: number; refunded: number; agent_adds: number; sales: number; cost: number; margin: number };
const data = (res: ApiResponse) => res.body.data as { balance: number; today: Figures & { period: string; start: number; end: number }; month: Figures & { period: string }; expiring: { count: number; at_least: boolean; first: Array<{ kid: string; expires_at: number }> }; subscription: unknown; events: Array<{ type: string; created: number }>; agent: string | null; accounts: unknown[] };

const zero: Figures = { adds: 0, refunds: 0, spend: 0, refunded: 0, agent_adds: 0, sales: 0, cost: 0, margin: 0 };

test('a new reseller: the balance, zero figures for today and this month (UTC), no subscription, no events', async () => {
  const s = await shop(2_500);
  const res = await stats(s);
  expect(res.status).toBe(200);
  const d = data(res);
  const day = new Date(d.today.start * 1000).toISOString();
  expect(day).toMatch(/T00:00:00.000Z$/);
  expect(d).toMatchObject({ balance: 2_500, agent: null, today: { ...zero, end: d.today.start + 86_400 }, month: zero, expiring: { count: 0, at_least: false, first: [] } });
  expect(d.month.period).toBe(day.slice(0, 7));
  expect(d.subscription).toMatchObject({ status: 'none', plan: null, sources: { used: 0 } });
});

test('adds, a failed add refunded, and the latest events: the figures follow the ledger', async () => {
  const s = await shop(10_000);
  expect((await add(s)).body).toMatchObject({ code: 1 });
  expect((await add(s)).body).toMatchObject({ code: 1 });
  bed.sim.injectFault({ teamId: s.teamId, method: 'POST', path: '/v1/devices', effect: 'forbidden' });
  expect((await add(s)).body).toMatchObject({ code: 0, data: { error: 'apple_unavailable' } });
  const d = data(await stats(s));
  // Instant tier 0 iPhone costs 1000 by default: two kept, one charged and given back.
  expect(d.balance).toBe(8_000);
  expect(d.today).toMatchObject({ adds: 2, refunds: 1, spend: 2_000, refunded: 1_000 });
  expect(d.month).toMatchObject({ adds: 2, refunds: 1, spend: 2_000, refunded: 1_000 });
  expect(d.events.map((e) => e.type)).toEqual(['device.added', 'device.added']);
  await expectLedgerAddsUp(s.tenantId);
}, 60_000);

test('a UTC month boundary: an add before midnight counts in that day and month, one after in the new ones', async () => {
  const s = await shop(10_000);
  // The next 1st of a month, 00:00 UTC; the clock runs from 3 s before it.
  const at = new Date();
  const boundary = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  const offset = boundary - 3_000 - Date.now();
  setClock(() => Date.now() + offset);
  try {
    expect((await add(s)).body).toMatchObject({ code: 1 });
    const before = data(await stats(s));
    expect(before.today).toMatchObject({ adds: 1, spend: 1_000, end: boundary / 1000 });
    expect(before.month).toMatchObject({ adds: 1, end: boundary / 1000 });
    // Wait for the boundary to pass on the product's clock.
    while (Date.now() + offset < boundary + 200) await new Promise((r) => setTimeout(r, 100));
    expect((await add(s)).body).toMatchObject({ code: 1 });
    const after = data(await stats(s));
    expect(after.today).toMatchObject({ adds: 1, spend: 1_000, start: boundary / 1000 });
    expect(after.month).toMatchObject({ adds: 1, spend: 1_000, start: boundary / 1000, period: new Date(boundary).toISOString().slice(0, 7) });
    expect(after.balance).toBe(8_000);
    await expectLedgerAddsUp(s.tenantId);
  } finally {
    const back = NOON - Date.now();
    setClock(() => Date.now() + back);
  }
}, 60_000);

describe('agents', () => {
  let c: Chain;
  let a1: Member;
  let a2: Member;
  let a3: Member;
  beforeAll(async () => {
    c = await chainShop(bed, 10_000);
    a1 = await createAgent(bed, c, c.reseller, 1200, 'first');
    a2 = await createAgent(bed, c, a1, 1500, 'second');
    a3 = await createAgent(bed, c, a2, 1800, 'third');
    expect((await topUp(bed, c, c.reseller, a1, 5000)).body.code).toBe(1);
    expect((await topUp(bed, c, a1, a2, 4500)).body.code).toBe(1);
    expect((await topUp(bed, c, a2, a3, 3600)).body.code).toBe(1);
    expect((await addBy(bed, c, a3)).body).toMatchObject({ code: 1 });
    expect((await addBy(bed, c, a3)).body).toMatchObject({ code: 1 });
    expect((await addBy(bed, c, a2)).body).toMatchObject({ code: 1 });
  }, 60_000);
  const as = (who: Member) => ({ host: c.host, token: who.token });

  test("a parent's figures sum its downline's sales; agent=<id> reads its own agent's figures", async () => {
    // a3's two adds sell 1200 each to the reseller (cost 1000); a2's add sells 1200 too.
    expect(data(await stats(as(c.reseller))).today).toMatchObject({ ...zero, agent_adds: 3, sales: 3_600, cost: 3_000, margin: 600 });
    // a1: a3's adds 1500 each and a2's add 1500, each costing it 1200.
    expect(data(await stats(as(a1))).today).toMatchObject({ ...zero, agent_adds: 3, sales: 4_500, cost: 3_600, margin: 900 });
    const a2Figures = data(await stats(as(a1), `?agent=${a2.userId}`));
    expect(a2Figures).toMatchObject({ agent: a2.userId, subscription: null, events: [], balance: 4500 - 3600 + 2 * (1800 - 1500) - 1500 });
    expect(a2Figures.today).toMatchObject({ adds: 1, spend: 1_500, agent_adds: 2, sales: 3_600, cost: 3_000, margin: 600 });
    expect(data(await stats(as(a2), `?agent=${a3.userId}`)).today).toMatchObject({ ...zero, adds: 2, spend: 3_600 });
    await expectLedgerAddsUp(c.tenantId);
  });

  test("an agent that is not the caller's own (a grandchild, the parent, itself, another reseller's) is refused like the device list's filter", async () => {
    const other = await chainShop(bed, 0);
    const stranger = await createAgent(bed, other, other.reseller, 1200);
    for (const [who, id] of [[c.reseller, a2.userId], [a2, a1.userId], [a1, a1.userId], [c.reseller, stranger.userId], [c.reseller, 'u_nobody']] as const) {
      const res = await stats(as(who), `?agent=${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 40006, msg: 'Agent not found or not yours', data: { error: 'agent_not_found' } });
    }
    const list = await bed.api.request('GET', `/api/device/list?token=${c.reseller.token}&agent=${stranger.userId}`, { headers: { Host: c.host, 'X-Lang': 'en' } });
    expect(list.body).toMatchObject({ code: 40006, data: { error: 'agent_not_found' } });
    const zh = await stats(as(c.reseller), `?agent=${stranger.userId}`, 'zh');
    expect(zh.body.msg).toBe('代理不存在或不是您的');
  });
});

test('certificates expiring within 7 days: usable ones only, soonest first, counted from the expiry index', async () => {
  const s = await shop(0);
  const now = nowS();
  const soon = await storedDevice(s, { ytime: now + 2 * 86_400 });
  const sooner = await storedDevice(s, { ytime: now + 3_600 });
  await storedDevice(s, { ytime: now + 6 * 86_400 });
  await storedDevice(s, { ytime: now + 8 * 86_400 });
  await storedDevice(s, { ytime: now - 60 });
  await storedDevice(s, { ytime: now + 86_400, enabled: false });
  await storedDevice(s, { ytime: now + 86_400, zt: 'revoked' });
  await storedDevice(s, { ytime: 0 });
  const d = data(await stats(s));
  expect(d.expiring.count).toBe(3);
  expect(d.expiring.at_least).toBe(false);
  expect(d.expiring.first.map((e) => [e.kid, e.expires_at])).toEqual([
    [sooner.kid, sooner.ytime],
    [soon.kid, soon.ytime],
    [expect.any(String), now + 6 * 86_400],
  ]);
  // Another user's certificates are not counted.
  const other = await makeUser({ tenantId: s.tenantId });
  await storedDevice({ userId: other.user.userId, tenantId: s.tenantId }, { ytime: now + 86_400 });
  expect(data(await stats(s)).expiring.count).toBe(3);
});

test('bounded: the stats of a user with many devices and entries cost the same few DynamoDB calls, and no scan', async () => {
  const s = await shop(100_000);
  const count = async () => {
    const calls: string[] = [];
    const TAP = 'stats-call-count';
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        const input = JSON.stringify(args.input);
        if (!/"TableName":"[^"]*tenant(s|-hosts)"/.test(input)) calls.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: TAP },
    );
    try {
      expect((await stats(s)).body.code).toBe(1);
    } finally {
      documentClient().middlewareStack.remove(TAP);
    }
    return calls;
  };
  const few = await count();
  for (let i = 0; i < 3; i++) expect((await add(s)).body.code).toBe(1);
  await Promise.all(Array.from({ length: 40 }, (_, i) => storedDevice(s, { ytime: nowS() + 3_600 + i })));
  const many = await count();
  expect(many.length).toBe(few.length);
  expect(many).not.toContain('ScanCommand');
  // The token, the rate limit's count, one batch (balance, tallies, subscription), the expiry index, the
  // accounts, the events.
  expect(many.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'UpdateItemCommand']);
}, 60_000);

test('ledger check finds a tally that disagrees with the ledger; ledger tallies sets it again from the entries', async () => {
  const s = await shop(5_000);
  expect((await add(s)).body.code).toBe(1);
  expect(await admin('ledger', 'check', '--tenant', s.tenantId)).toMatchObject({ code: 0, json: { ok: true, differences: [] } });
  const day = new Date(nowS() * 1000).toISOString().slice(0, 10);
  await documentClient().send(
    new UpdateCommand({ TableName: tableName('ledger'), Key: { user_id: tallyKey(s.userId, { kind: 'day', id: day }), seq: 0 }, UpdateExpression: 'ADD n_charge :one', ExpressionAttributeValues: { ':one': 1 } }),
  );
  const broken = await admin('ledger', 'check', '--tenant', s.tenantId);
  expect(broken.code).toBe(1);
  expect(broken.json.differences).toEqual([{ user_id: s.userId, tenant_id: s.tenantId, problem: 'tally_differs', period: `day#${day}`, kind: 'charge', field: 'count', expected: 1, found: 2 }]);
  expect(data(await stats(s)).today.adds).toBe(2);
  // The month's tally gone altogether (as on a ledger from before the tallies): both periods differ.
  await documentClient().send(new DeleteCommand({ TableName: tableName('ledger'), Key: { user_id: tallyKey(s.userId, { kind: 'month', id: day.slice(0, 7) }), seq: 0 } }));
  const month = `month#${day.slice(0, 7)}`;
  expect((await checkLedger(s.tenantId)).differences.map((d) => [d.period, d.kind, d.field, d.expected, d.found])).toEqual([
    [`day#${day}`, 'charge', 'count', 1, 2],
    [month, 'charge', 'count', 1, 0],
    [month, 'charge', 'amount', -1_000, 0],
  ]);
  // The opening entry (the fixture's user was made in November 2023) and the charge: two days, two months.
  expect(await admin('ledger', 'tallies', '--tenant', s.tenantId)).toMatchObject({ code: 0, json: { users: 1, periods: 4 } });
  expect(await admin('ledger', 'check', '--tenant', s.tenantId)).toMatchObject({ code: 0, json: { ok: true, differences: [] } });
  expect(data(await stats(s)).today).toMatchObject({ adds: 1, spend: 1_000 });
});

test('a rebuild racing adds leaves every tally exact', async () => {
  const s = await shop(20_000);
  const adds = Array.from({ length: 8 }, () => add(s));
  const rebuilds = [admin('ledger', 'tallies', '--user', s.userId), new Promise((r) => setTimeout(r, 150)).then(() => admin('ledger', 'tallies', '--user', s.userId))];
  const [answers, runs] = await Promise.all([Promise.all(adds), Promise.all(rebuilds)]);
  expect(answers.map((a) => a.body.code)).toEqual(Array(8).fill(1));
  expect(runs.map((r) => r.code)).toEqual([0, 0]);
  await expectLedgerAddsUp(s.tenantId);
  expect(data(await stats(s)).today).toMatchObject({ adds: 8, spend: 8_000 });
}, 60_000);

test('bad input changes nothing and is refused in the caller’s language', async () => {
  const s = await shop(0);
  const unknown = await stats(s, '?days=7', 'es');
  expect(unknown.status).toBe(400);
  expect(unknown.body).toMatchObject({ code: 40002, data: { error: 'unknown_field', fields: ['days'] } });
  const bad = await stats(s, '?agent=%3Cscript%3E', 'ru');
  expect(bad.status).toBe(400);
  expect(bad.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: ['agent'] } });
  const noToken = await bed.api.request('GET', '/api/user/stats', { headers: { Host: s.host } });
  expect(noToken.status).toBe(401);
  const elsewhere = await makeTenant('en');
  expect((await stats({ host: elsewhere.host, token: s.token })).body).toMatchObject({ code: 10, data: { error: 'token_invalid' } });
});
