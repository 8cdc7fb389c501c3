/**
 * The operator's agent commands: a user's agents, one agent with its upline and prices, and suspension (the
 * agent's adds, and those below it, refused with nothing charged anywhere; lifted, they go through).
 */
import { balanceOf, startTestbed, type Testbed } from '../support/add-device-testbed';
import { admin } from '../support/admin-cli';
import { expectLedgerAddsUp } from '../support/ledger';
import { addBy, chainShop, createAgent, topUp } from './agent-support';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

test('agent list, show and suspend (and --lift), as the operator', async () => {
  const c = await chainShop(bed, 10_000);
  const a1 = await createAgent(bed, c, c.reseller, 1200, 'north');
  const a2 = await createAgent(bed, c, a1, 1500, 'south');
  expect((await topUp(bed, c, c.reseller, a1, 5_000)).body.code).toBe(1);
  expect((await topUp(bed, c, a1, a2, 3_000)).body.code).toBe(1);

  expect(await admin('agent', 'list', '--user', c.reseller.userId)).toMatchObject({
    code: 0,
    json: { user_id: c.reseller.userId, items: [{ agent_id: a1.userId, name: 'north', level: 1, suspended: false, balance: 2_000, parent_id: c.reseller.userId, upline: [c.reseller.userId] }] },
  });
  const shown = await admin('agent', 'show', '--agent', a2.userId);
  expect(shown.json).toMatchObject({ agent_id: a2.userId, level: 2, parent_id: a1.userId, upline: [c.reseller.userId, a1.userId], balance: 3_000 });
  expect((shown.json.prices as Array<Record<string, unknown>>).find((p) => p.mode === 'instant' && p.warranty === 0 && p.device_type === 'iphone')).toEqual({ mode: 'instant', warranty: 0, device_type: 'iphone', price: 1_500, cost: 1_200, bands: [] });
  expect(JSON.stringify(shown.json)).not.toContain(a2.token);

  // Suspending a1 stops a2's adds too, with nothing charged anywhere.
  expect(await admin('agent', 'suspend', '--agent', a1.userId)).toMatchObject({ code: 0, json: { agent_id: a1.userId, suspended: true } });
  const before = [await balanceOf(c.reseller.userId), await balanceOf(a1.userId), await balanceOf(a2.userId)];
  expect((await addBy(bed, c, a2)).body).toMatchObject({ code: 0, data: { error: 'agent_suspended' } });
  expect([await balanceOf(c.reseller.userId), await balanceOf(a1.userId), await balanceOf(a2.userId)]).toEqual(before);
  expect(await admin('agent', 'suspend', '--agent', a1.userId, '--lift')).toMatchObject({ code: 0, json: { suspended: false } });
  expect((await addBy(bed, c, a2)).body).toMatchObject({ code: 1 });
  await expectLedgerAddsUp(c.tenantId);

  // A user that is not an agent, and an unknown one, are refused by name.
  expect(await admin('agent', 'show', '--agent', c.reseller.userId)).toMatchObject({ code: 1, stderr: expect.stringContaining('is not an agent') });
  expect(await admin('agent', 'suspend', '--agent', c.reseller.userId)).toMatchObject({ code: 1 });
  expect(await admin('agent', 'list', '--user', 'u_nobody')).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown user') });
});
