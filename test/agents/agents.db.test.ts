/**
 * Agents through the API: a three-level chain under a reseller, prices per level, top-ups, an add at the
 * bottom settling every level, refunds, suspension, and isolation (an id not one's own agent teaches nothing).
 */
import { getAccount } from '../../shared/db/repositories/account-repository';
import { balanceOf, startTestbed, type Testbed } from '../support/add-device-testbed';
import { expectLedgerAddsUp, ledgerOf } from '../support/ledger';
import { addBy, call, chainShop, createAgent, eventsOf, topUp, type Chain, type Member } from './agent-support';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

interface ThreeLevels {
  c: Chain;
  a1: Member;
  a2: Member;
  a3: Member;
}

/** Reseller → a1 (1200) → a2 (1500) → a3 (1800), each topped up by its parent. */
async function threeLevels(): Promise<ThreeLevels> {
  const c = await chainShop(bed, 10_000);
  const a1 = await createAgent(bed, c, c.reseller, 1200, 'first');
  const a2 = await createAgent(bed, c, a1, 1500, 'second');
  const a3 = await createAgent(bed, c, a2, 1800, 'third');
  expect((await topUp(bed, c, c.reseller, a1, 5000)).body).toMatchObject({ code: 1, data: { balance: 5000, agent: { agent_id: a1.userId, balance: 5000 } } });
  expect((await topUp(bed, c, a1, a2, 3000)).body).toMatchObject({ code: 1, data: { balance: 2000, agent: { balance: 3000 } } });
  expect((await topUp(bed, c, a2, a3, 1800)).body).toMatchObject({ code: 1, data: { balance: 1200, agent: { balance: 1800 } } });
  return { c, a1, a2, a3 };
}

test('an add at the bottom of three levels charges the agent its price and pays every level its margin, with the certificate', async () => {
  const { c, a1, a2, a3 } = await threeLevels();
  const res = await addBy(bed, c, a3);
  expect(res.body).toMatchObject({ code: 1, ysucc: 'Ysucc' });
  const kid = (res.body.data as { id: string }).id;
  // 10000 − 5000 + 1200 − 1000; 5000 − 3000 + 1500 − 1200; 3000 − 1800 + 1800 − 1500; 1800 − 1800.
  expect([await balanceOf(c.reseller.userId), await balanceOf(a1.userId), await balanceOf(a2.userId), await balanceOf(a3.userId)]).toEqual([5200, 2300, 1500, 0]);
  expect((await ledgerOf(a3.userId)).map((e) => [e.kind, e.amount, e.agent_id, e.level])).toEqual([
    ['topup', 1800, undefined, undefined],
    ['charge', -1800, a3.userId, 3],
  ]);
  expect((await ledgerOf(c.reseller.userId)).map((e) => [e.kind, e.amount, e.balance_after, e.agent_id, e.level, e.kid])).toEqual([
    ['opening', 10_000, 10_000, undefined, undefined, undefined],
    ['agent_topup', -5000, 5000, a1.userId, undefined, undefined],
    ['agent_sale', 1200, 6200, a3.userId, 0, kid],
    ['agent_cost', -1000, 5200, a3.userId, 0, kid],
  ]);
  expect((await ledgerOf(a2.userId)).slice(-2).map((e) => [e.kind, e.amount, e.level])).toEqual([
    ['agent_sale', 1800, 2],
    ['agent_cost', -1500, 2],
  ]);
  // Every level above the agent is told, with its own money; the agent's own event is device.added.
  for (const [who, credit, cost] of [[c.reseller, 1200, 1000], [a1, 1500, 1200], [a2, 1800, 1500]] as const) {
    const added = (await eventsOf(who.userId)).filter((e) => e.type === 'agent.device_added');
    expect(added.map((e) => e.data)).toEqual([expect.objectContaining({ agent_id: a3.userId, agent_level: 3, kid, credit, cost, margin: credit - cost, mode: 'instant', warranty: 0 })]);
  }
  expect((await eventsOf(a3.userId)).map((e) => e.type)).toEqual(['device.added']);
  await expectLedgerAddsUp(c.tenantId);
});

test('a failed add at the bottom refunds the agent and moves nothing above it', async () => {
  const { c, a1, a2, a3 } = await threeLevels();
  bed.sim.injectFault({ teamId: c.teamId, method: 'POST', path: '/v1/devices', effect: 'forbidden' });
  const res = await addBy(bed, c, a3);
  expect(res.body).toMatchObject({ code: 0, data: { error: 'apple_unavailable' } });
  expect([await balanceOf(c.reseller.userId), await balanceOf(a1.userId), await balanceOf(a2.userId), await balanceOf(a3.userId)]).toEqual([5000, 2000, 1200, 1800]);
  expect((await ledgerOf(a3.userId)).map((e) => [e.kind, e.amount, e.level, e.reason])).toEqual([
    ['topup', 1800, undefined, undefined],
    ['charge', -1800, 3, undefined],
    ['refund', 1800, 3, 'apple_unavailable'],
  ]);
  expect((await ledgerOf(a2.userId)).map((e) => e.kind)).toEqual(['topup', 'agent_topup']);
  expect((await getAccount(c.accountId))!.free.iphone).toBe(100);
  await expectLedgerAddsUp(c.tenantId);
});

test('a suspended agent (or one under a suspended agent) is refused with nothing charged anywhere; lifting it lets it add', async () => {
  const { c, a1, a2, a3 } = await threeLevels();
  const before = [await balanceOf(c.reseller.userId), await balanceOf(a1.userId), await balanceOf(a2.userId), await balanceOf(a3.userId)];
  expect((await call(bed, c, a1, 'POST', '/api/user/agents', { agent_id: a2.userId,  suspended: true })).body).toMatchObject({ code: 1, data: { agent_id: a2.userId, suspended: true } });
  // a3's parent is suspended: a3 cannot add either.
  expect((await addBy(bed, c, a3)).body).toMatchObject({ code: 0, data: { error: 'agent_suspended' } });
  expect((await addBy(bed, c, a2)).body).toMatchObject({ code: 0, data: { error: 'agent_suspended' } });
  // Nor create or top up agents.
  expect((await topUp(bed, c, a2, a3, 100)).body).toMatchObject({ code: 40003, data: { error: 'agent_account_suspended' } });
  expect([await balanceOf(c.reseller.userId), await balanceOf(a1.userId), await balanceOf(a2.userId), await balanceOf(a3.userId)]).toEqual(before);
  expect(bed.sim.registeredDevices(c.teamId)).toHaveLength(0);
  expect((await call(bed, c, a1, 'POST', '/api/user/agents', { agent_id: a2.userId,  suspended: false })).body).toMatchObject({ code: 1, data: { suspended: false } });
  expect((await addBy(bed, c, a3)).body).toMatchObject({ code: 1 });
  await expectLedgerAddsUp(c.tenantId);
});

test('prices: never below what the parent pays (refused, localized, nothing written); the agent sees only what it pays', async () => {
  const c = await chainShop(bed, 0);
  const a1 = await createAgent(bed, c, c.reseller, 1200);
  // Below a1's own 1200: refused, in the caller's language, and no agent is made.
  for (const [lang, text] of [['en', 'Price 11.00 is below your cost 12.00'], ['zh', '价格 11.00 低于您的成本 12.00'], ['ar', 'السعر 11.00 أقل من تكلفتك 12.00']] as const) {
    const res = await call(bed, c, a1, 'POST', '/api/user/agents', { name: 'cheap', prices: [{ mode: 'instant', warranty: 0, device_type: 'iphone', price: 1100 }] }, lang);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 40003, data: { error: 'agent_price_below_cost', cost: 1200, price: 1100 } });
    expect(res.body.msg).toContain(text);
  }
  expect((await call(bed, c, a1, 'POST', '/api/user/agents')).body).toMatchObject({ code: 1, data: { items: [] } });
  const a2 = await createAgent(bed, c, a1, 1300);
  // One price below the floor refuses the whole change: the good one is not written either.
  const refused = await call(bed, c, a1, 'POST', '/api/user/agents', { agent_id: a2.userId, 
    prices: [
      { mode: 'instant', warranty: 1, device_type: 'iphone', price: 9999 },
      { mode: 'review', warranty: 0, device_type: 'ipad', price: 100 },
    ],
  });
  expect(refused.body).toMatchObject({ code: 40003, data: { error: 'agent_price_below_cost', mode: 'review', warranty: 0, device_type: 'ipad', cost: 600 } });
  const shown = await call(bed, c, a1, 'POST', '/api/user/agents', { agent_id: a2.userId });
  const prices = (shown.body.data as { prices: Array<{ mode: string; warranty: number; device_type: string; price: number; cost: number }> }).prices;
  expect(prices.find((p) => p.mode === 'instant' && p.warranty === 1 && p.device_type === 'iphone')).toEqual({ mode: 'instant', warranty: 1, device_type: 'iphone', price: 1500, cost: 1500, bands: [] });
  expect(prices.find((p) => p.mode === 'instant' && p.warranty === 0 && p.device_type === 'iphone')).toEqual({ mode: 'instant', warranty: 0, device_type: 'iphone', price: 1300, cost: 1200, bands: [] });
  // The agent's own balance view: its prices, nothing of its parent's.
  const balance = await bed.api.request('GET', `/api/user/balance?token=${a2.token}`, { headers: { Host: c.host } });
  expect(balance.body).toMatchObject({ code: 1, data: { balance: 0 } });
  const mine = (balance.body.data as { prices: Array<Record<string, unknown>> }).prices;
  expect(mine.find((p) => p.mode === 'instant' && p.warranty === 0 && p.device_type === 'iphone')).toEqual({ mode: 'instant', warranty: 0, device_type: 'iphone', price: 1300, personal: false });
  expect(JSON.stringify(balance.body)).not.toContain('cost');
  // An empty name or a tier review does not sell is bad input.
  expect((await call(bed, c, a1, 'POST', '/api/user/agents', { name: '' })).body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: ['name'] } });
  expect((await call(bed, c, a1, 'POST', '/api/user/agents', { name: 'x', prices: [{ mode: 'review', warranty: 6, device_type: 'iphone', price: 5000 }] })).body).toMatchObject({ code: 40002 });
});

test('three levels deep at most; agents are listed by their parent only, never with a token', async () => {
  const c = await chainShop(bed, 0);
  const a1 = await createAgent(bed, c, c.reseller);
  const a2 = await createAgent(bed, c, a1);
  const a3 = await createAgent(bed, c, a2);
  expect(a3.level).toBe(3);
  const deeper = await call(bed, c, a3, 'POST', '/api/user/agents', { name: 'fourth' });
  expect(deeper.body).toMatchObject({ code: 40003, data: { error: 'agent_depth_exceeded' } });
  const listed = await call(bed, c, c.reseller, 'POST', '/api/user/agents');
  expect(listed.body).toMatchObject({ code: 1, data: { items: [{ agent_id: a1.userId, level: 1, suspended: false, balance: 0, contact: 'tg: @agent' }] } });
  expect(JSON.stringify(listed.body)).not.toContain(a1.token);
  expect(JSON.stringify(listed.body)).not.toContain(a2.userId);
});

test('isolation: a parent, a sibling, a grand-agent or another tenant’s agent is not found, never data', async () => {
  const { c, a1, a2, a3 } = await threeLevels();
  const sibling = await createAgent(bed, c, a1, 1500, 'sibling');
  expect((await addBy(bed, c, a3)).body).toMatchObject({ code: 1 });
  const other = await chainShop(bed, 0);
  const stranger = await createAgent(bed, other, other.reseller);
  const notFound = { code: 40006, data: { error: 'agent_not_found' } };
  for (const [who, id] of [
    [a2, a1.userId], // its parent
    [a2, sibling.userId], // a sibling
    [a2, a2.userId], // itself
    [c.reseller, a2.userId], // an agent of its agent: one level down only
    [c.reseller, stranger.userId], // another tenant's
    [a1, 'u_nobody'],
  ] as const) {
    for (const [method, path, json] of [
      ['POST', '/api/user/agents', { agent_id: id }],
      ['POST', '/api/user/agents', { agent_id: id, suspended: true }],
      ['POST', '/api/user/agents', { agent_id: id, amount: 1 }],
    ] as const) {
      const res = await call(bed, c, who, method, path, json);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject(notFound);
    }
    // The device list and the ledger by agent: the device envelope's code, HTTP 200, no items.
    const list = await bed.api.request('GET', `/api/device/list?token=${who.token}&agent=${id}`, { headers: { Host: c.host, 'X-Lang': 'en' } });
    expect(list.body).toMatchObject(notFound);
    expect(list.body.data).not.toHaveProperty('items');
    const ledger = await bed.api.request('GET', `/api/user/ledger?token=${who.token}&agent=${id}`, { headers: { Host: c.host, 'X-Lang': 'en' } });
    expect(ledger.body).toMatchObject(notFound);
  }
  // Nothing changed: the suspension and the top-ups above were refused.
  expect((await call(bed, c, a1, 'POST', '/api/user/agents', { agent_id: a2.userId })).body).toMatchObject({ code: 1, data: { suspended: false } });
  // The parent reads its own agent's devices and ledger (never a .p12 or a profile).
  const list = await bed.api.request('GET', `/api/device/list?token=${a2.token}&agent=${a3.userId}`, { headers: { Host: c.host } });
  expect(list.body).toMatchObject({ code: 1, data: { items: [expect.objectContaining({ zt: 'normal' })] } });
  expect(JSON.stringify(list.body)).not.toMatch(/p12|mobileprovision/);
  const ledger = await bed.api.request('GET', `/api/user/ledger?token=${a2.token}&agent=${a3.userId}`, { headers: { Host: c.host } });
  expect((ledger.body.data as { items: Array<{ kind: string }> }).items.map((e) => e.kind)).toEqual(['charge', 'topup']);
  await expectLedgerAddsUp(c.tenantId);
});

test('a top-up the parent cannot cover is refused with nothing moved', async () => {
  const c = await chainShop(bed, 500);
  const a1 = await createAgent(bed, c, c.reseller);
  const res = await topUp(bed, c, c.reseller, a1, 501);
  expect(res.status).toBe(409);
  expect(res.body).toMatchObject({ code: 40003, data: { error: 'topup_not_covered', amount: 501, balance: 500 } });
  expect([await balanceOf(c.reseller.userId), await balanceOf(a1.userId)]).toEqual([500, 0]);
  expect((await topUp(bed, c, c.reseller, a1, 0)).body).toMatchObject({ code: 40002, data: { fields: ['amount'] } });
  await expectLedgerAddsUp(c.tenantId);
});

test('ledger check proves every level: a level credited more than the level below paid is a difference', async () => {
  const { c, a3 } = await threeLevels();
  const res = await addBy(bed, c, a3);
  const kid = (res.body.data as { id: string }).id;
  await expectLedgerAddsUp(c.tenantId);
  // A second sale of the same add on the reseller's ledger, written as the ledger writes any change: each
  // user's ledger still adds up, but the chain does not.
  const { writeWithLedger } = await import('../../shared/domain/ledger/ledger');
  await writeWithLedger({ userId: c.reseller.userId, change: { amount: 1200, kind: 'agent_sale', ref: { kid, agent_id: a3.userId, level: 0 }, at: 1 } });
  const { checkLedger } = await import('../../shared/domain/ledger/reconcile');
  const report = await checkLedger(c.tenantId);
  expect(report.differences).toEqual([expect.objectContaining({ problem: 'agent_chain', kid, agent_id: a3.userId, level: 0, user_id: c.reseller.userId, expected: 1200, found: 2400 })]);
});
