/**
 * The low-balance threshold a parent sets for each agent, on DynamoDB Local: `agent.balance_low` to the parent
 * once per crossing (after the add that takes the agent's balance below it, by the low-balance pass), not again
 * while it stays below, again after a top-up lifted it and another add took it below; shown on the agent list.
 */
import { runBalanceLowPass } from '../../shared/domain/events/balance-low';
import { startTestbed, type Testbed } from '../support/add-device-testbed';
import { addBy, call, chainShop, createAgent, eventsOf, topUp } from './agent-support';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

const nowS = () => Math.floor(Date.now() / 1000);

test('a parent’s threshold for its agent: one agent.balance_low per crossing, shown on the list; bad thresholds refused', async () => {
  const c = await chainShop(bed, 100_000);
  const a1 = await createAgent(bed, c, c.reseller, 1200);
  await topUp(bed, c, c.reseller, a1, 3_000);
  expect((await call(bed, c, c.reseller, 'POST', '/api/user/agents', { agent_id: a1.userId, low_balance: -1 })).body).toMatchObject({ code: 40002 });
  const set = await call(bed, c, c.reseller, 'POST', '/api/user/agents', { agent_id: a1.userId, low_balance: 2_000 });
  expect(set.body).toMatchObject({ code: 1, data: { agent_id: a1.userId, low_balance: 2_000, balance_low: false } });
  const lowEvents = async () => (await eventsOf(c.reseller.userId)).filter((e) => e.type === 'agent.balance_low').map((e) => e.data);

  await runBalanceLowPass(nowS());
  expect(await lowEvents()).toEqual([]);
  expect((await addBy(bed, c, a1)).body.code).toBe(1); // 3000 → 1800: below 2000
  await runBalanceLowPass(nowS());
  expect(await lowEvents()).toEqual([{ agent_id: a1.userId, agent_level: 1, balance: 1_800, threshold: 2_000 }]);
  const list = await call(bed, c, c.reseller, 'POST', '/api/user/agents', {});
  expect((list.body.data as { items: unknown[] }).items).toEqual([expect.objectContaining({ agent_id: a1.userId, balance: 1_800, low_balance: 2_000, balance_low: true })]);
  // Still below after another add: no second event for the same stay below.
  expect((await addBy(bed, c, a1)).body.code).toBe(1); // 600
  await runBalanceLowPass(nowS());
  expect(await lowEvents()).toHaveLength(1);
  // A top-up lifts it above (the mark is cleared); the next add that takes it below is a new crossing.
  await topUp(bed, c, c.reseller, a1, 2_000); // 2600
  await runBalanceLowPass(nowS());
  expect((await addBy(bed, c, a1)).body.code).toBe(1); // 1400
  await runBalanceLowPass(nowS());
  // Both crossings (events of the same second list in their ids' order, not necessarily the order they were made).
  const both = await lowEvents();
  expect(both).toHaveLength(2);
  expect(both).toEqual(
    expect.arrayContaining([
      { agent_id: a1.userId, agent_level: 1, balance: 1_800, threshold: 2_000 },
      { agent_id: a1.userId, agent_level: 1, balance: 1_400, threshold: 2_000 },
    ]),
  );
  // The agent's own balance.low is its own setting, not its parent's: it has none, so it was told nothing.
  expect((await eventsOf(a1.userId)).filter((e) => e.type === 'balance.low')).toEqual([]);
}, 120_000);
