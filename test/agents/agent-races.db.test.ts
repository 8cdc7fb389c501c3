/**
 * Agents' money under races, on DynamoDB Local and the App Store Connect simulator: concurrent adds at three
 * levels (each level above an adder credited and charged in the certificate's transaction), a parent topping up
 * while its agent adds, and a suspended agent. Every balance is checked exactly against what was delivered and
 * topped up, no balance is ever below zero, and `ledger check` proves every level.
 */
import { getAccount } from '../../shared/db/repositories/account-repository';
import { balanceOf, startTestbed, type Testbed } from '../support/add-device-testbed';
import { expectLedgerAddsUp, ledgerOf } from '../support/ledger';
import type { ApiResponse } from '../support/api';
import { addBy, chainShop, createAgent, topUp, type Member } from './agent-support';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

const delivered = (answers: ApiResponse[]) => answers.filter((a) => a.body.code === 1).length;
const refusals = (answers: ApiResponse[]) => answers.filter((a) => a.body.code !== 1).map((a) => (a.body.data as { error: string }).error);
const kinds = async (who: Member, kind: string) => (await ledgerOf(who.userId)).filter((e) => e.kind === kind);

test('20 concurrent adds by agents at three levels with money for some: every level’s balance and ledger exact, ledger check clean', async () => {
  // Prices 1000 (the reseller's) → 1200 → 1500 → 1800: margins 200, 300, 300.
  const c = await chainShop(bed, 100_000);
  const a1 = await createAgent(bed, c, c.reseller, 1200);
  const a2 = await createAgent(bed, c, a1, 1500);
  const a3 = await createAgent(bed, c, a2, 1800);
  // Money for 3 adds of a1's, 2 of a2's and 4 of a3's (a margin earned during the race may buy a1 or a2 more).
  await topUp(bed, c, c.reseller, a1, 3 * 1200 + 2 * 1500 + 4 * 1800);
  await topUp(bed, c, a1, a2, 2 * 1500 + 4 * 1800);
  await topUp(bed, c, a2, a3, 4 * 1800);
  const who = [...Array<Member>(6).fill(a1), ...Array<Member>(7).fill(a2), ...Array<Member>(7).fill(a3)];
  const answers = await Promise.all(who.map((agent) => addBy(bed, c, agent)));
  const d1 = delivered(answers.slice(0, 6));
  const d2 = delivered(answers.slice(6, 13));
  const d3 = delivered(answers.slice(13));
  expect(d3).toBe(4);
  expect(d2).toBeGreaterThanOrEqual(2);
  expect(d1).toBeGreaterThanOrEqual(3);
  expect(refusals(answers)).toEqual(Array(20 - d1 - d2 - d3).fill('insufficient_balance'));
  const adds = d1 + d2 + d3;
  expect(await balanceOf(c.reseller.userId)).toBe(100_000 - (3 * 1200 + 2 * 1500 + 4 * 1800) + 200 * adds);
  expect(await balanceOf(a1.userId)).toBe(3 * 1200 - 1200 * d1 + 300 * (d2 + d3));
  expect(await balanceOf(a2.userId)).toBe(2 * 1500 - 1500 * d2 + 300 * d3);
  expect(await balanceOf(a3.userId)).toBe(0);
  // Each level: one sale and one cost per add below it, each naming the adder; one charge per own add.
  expect((await kinds(c.reseller, 'agent_sale')).length).toBe(adds);
  expect((await kinds(c.reseller, 'agent_cost')).map((e) => e.amount)).toEqual(Array(adds).fill(-1000));
  expect((await kinds(a1, 'agent_sale')).length).toBe(d2 + d3);
  expect((await kinds(a2, 'agent_sale')).map((e) => [e.amount, e.agent_id])).toEqual(Array(d3).fill([1800, a3.userId]));
  expect((await kinds(a1, 'charge')).map((e) => [e.amount, e.level])).toEqual(Array(d1).fill([-1200, 1]));
  // One slot and one registration per delivered add.
  expect((await getAccount(c.accountId))!.free.iphone).toBe(100 - adds);
  expect(bed.sim.registeredDevices(c.teamId)).toHaveLength(adds);
  await expectLedgerAddsUp(c.tenantId);
}, 180_000);

test('a parent topping up while its agent adds and while it adds itself: no balance below zero, every cent accounted for', async () => {
  const c = await chainShop(bed, 100_000);
  const a1 = await createAgent(bed, c, c.reseller, 1200);
  const a2 = await createAgent(bed, c, a1, 1500);
  // a1 can cover 3 top-ups of 1500 and 2 adds of its own, not everything it is asked for at once.
  await topUp(bed, c, c.reseller, a1, 3 * 1500 + 2 * 1200);
  const topUps = Array.from({ length: 5 }, () => topUp(bed, c, a1, a2, 1500));
  const own = Array.from({ length: 4 }, () => addBy(bed, c, a1));
  const agents = Array.from({ length: 6 }, () => addBy(bed, c, a2));
  const [t, d1, d2] = await Promise.all([Promise.all(topUps), Promise.all(own), Promise.all(agents)]);
  const made = t.filter((r) => r.body.code === 1).length;
  expect(t.filter((r) => r.body.code !== 1).map((r) => (r.body.data as { error: string }).error)).toEqual(Array(5 - made).fill('topup_not_covered'));
  const [n1, n2] = [delivered(d1), delivered(d2)];
  expect(refusals([...d1, ...d2])).toEqual(Array(10 - n1 - n2).fill('insufficient_balance'));
  expect(await balanceOf(a1.userId)).toBe(3 * 1500 + 2 * 1200 - 1500 * made - 1200 * n1 + 300 * n2);
  expect(await balanceOf(a2.userId)).toBe(1500 * made - 1500 * n2);
  expect(await balanceOf(c.reseller.userId)).toBe(100_000 - (3 * 1500 + 2 * 1200) + 200 * (n1 + n2));
  // Both sides of every top-up, and no balance_after anywhere below zero.
  expect((await kinds(a1, 'agent_topup')).length).toBe(made);
  expect((await kinds(a2, 'topup')).length).toBe(made);
  for (const member of [c.reseller, a1, a2]) expect((await ledgerOf(member.userId)).every((e) => e.balance_after >= 0)).toBe(true);
  expect(bed.sim.registeredDevices(c.teamId)).toHaveLength(n1 + n2);
  await expectLedgerAddsUp(c.tenantId);
}, 180_000);

test('a suspended agent’s concurrent adds are all refused, with nothing charged anywhere and no Apple slot spent', async () => {
  const c = await chainShop(bed, 100_000);
  const a1 = await createAgent(bed, c, c.reseller, 1200);
  const a2 = await createAgent(bed, c, a1, 1500);
  await topUp(bed, c, c.reseller, a1, 20_000);
  await topUp(bed, c, a1, a2, 10_000);
  const res = await bed.api.request('POST', '/api/user/agents', { headers: { Host: c.host, Authorization: `Bearer ${a1.token}` }, json: { agent_id: a2.userId, suspended: true } });
  expect(res.body).toMatchObject({ code: 1 });
  const ledgersBefore = await Promise.all([c.reseller, a1, a2].map((m) => ledgerOf(m.userId)));
  const answers = await Promise.all(Array.from({ length: 5 }, () => addBy(bed, c, a2)));
  expect(refusals(answers)).toEqual(Array(5).fill('agent_suspended'));
  expect([await balanceOf(c.reseller.userId), await balanceOf(a1.userId), await balanceOf(a2.userId)]).toEqual([80_000, 10_000, 10_000]);
  expect(await Promise.all([c.reseller, a1, a2].map((m) => ledgerOf(m.userId)))).toEqual(ledgersBefore);
  expect((await getAccount(c.accountId))!.free.iphone).toBe(100);
  expect(bed.sim.registeredDevices(c.teamId)).toHaveLength(0);
  await expectLedgerAddsUp(c.tenantId);
}, 180_000);
