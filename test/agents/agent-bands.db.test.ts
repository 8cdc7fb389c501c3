/**
 * Volume bands and suspension at the moment of payment, on DynamoDB Local and the App Store Connect simulator:
 * bands set per agent (validated in every language), the month's count deciding each level's price in the
 * payment's own transaction (exact across a band boundary under concurrent adds), a refund giving back exactly
 * what was paid and the count its place, and a suspension landing between an add's price check and its payment
 * stopping it with nothing charged anywhere and no slot spent.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { updateAgent } from '../../shared/db/repositories/user-repository';
import { getAccount } from '../../shared/db/repositories/account-repository';
import { addCountKey } from '../../shared/db/repositories/add-count-repository';
import { addMonth } from '../../shared/records/price-band';
import { balanceOf, startTestbed, type Testbed } from '../support/add-device-testbed';
import { expectLedgerAddsUp, ledgerOf } from '../support/ledger';
import type { ApiResponse } from '../support/api';
import { addBy, call, chainShop, createAgent, topUp, type Chain, type Member } from './agent-support';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

const LANGS = ['zh', 'en', 'zh-TW', 'vi', 'ar', 'es', 'ru'];
const item = { mode: 'instant', warranty: 0, device_type: 'iphone' };
const charges = async (who: Member) => (await ledgerOf(who.userId)).filter((e) => e.kind === 'charge').map((e) => e.amount);
const costs = async (who: Member) => (await ledgerOf(who.userId)).filter((e) => e.kind === 'agent_cost').map((e) => e.amount);
const errorOf = (res: ApiResponse) => (res.body.data as { error: string }).error;
const monthCount = async (who: Member) => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('counters'), Key: { counter: addCountKey(who.userId, addMonth(Math.floor(Date.now() / 1000))) }, ConsistentRead: true }));
  return Number(out.Item?.n ?? 0);
};
const setPrices = (c: Chain, parent: Member, agent: Member, price: number, bands: Array<{ from: number; price: number }>, lang = 'en') =>
  call(bed, c, parent, 'POST', '/api/user/agents', { agent_id: agent.userId, prices: [{ ...item, price, bands }] }, lang);

test('bands are refused out of order, not lower than the price before, or below what the parent pays — in seven languages, with nothing written', async () => {
  const c = await chainShop(bed, 10_000);
  const a1 = await createAgent(bed, c, c.reseller, 1200);
  // One refusal in all seven languages (each its own words), the others in one language each (the limit is 30 a minute).
  const messages = new Set<string>();
  for (const lang of LANGS) {
    const res = await setPrices(c, c.reseller, a1, 1200, [{ from: 5, price: 1100 }, { from: 5, price: 1050 }], lang);
    expect(res.body).toMatchObject({ code: 40003, data: { error: 'agent_band_order', band: 1, from: 5 } });
    messages.add(String(res.body.msg));
  }
  expect(messages.size).toBe(LANGS.length);
  for (const [bands, error, lang] of [
    [[{ from: 5, price: 1100 }, { from: 3, price: 1050 }], 'agent_band_order', 'zh'],
    [[{ from: 5, price: 1200 }], 'agent_band_not_lower', 'ar'],
    [[{ from: 5, price: 1100 }, { from: 9, price: 900 }], 'agent_price_below_cost', 'ru'],
  ] as const) {
    const res = await setPrices(c, c.reseller, a1, 1200, [...bands], lang);
    expect(res.body).toMatchObject({ code: 40003, data: { error } });
    expect(String(res.body.msg)).not.toMatch(/^[\x20-\x7e]*$/);
  }
  // A band starting at the first add is the price itself: refused by the schema.
  expect((await setPrices(c, c.reseller, a1, 1200, [{ from: 1, price: 1100 }])).body).toMatchObject({ code: 40002 });
  const shown = await call(bed, c, c.reseller, 'POST', '/api/user/agents', { agent_id: a1.userId });
  expect((shown.body.data as { prices: Array<{ price: number; bands: unknown[] }> }).prices[0]).toMatchObject({ ...item, price: 1200, cost: 1000, bands: [] });
  // A valid set is kept and shown.
  expect((await setPrices(c, c.reseller, a1, 1200, [{ from: 3, price: 1100 }, { from: 10, price: 1000 }])).body).toMatchObject({ code: 1, data: { prices: expect.arrayContaining([{ ...item, price: 1200, cost: 1000, bands: [{ from: 3, price: 1100 }, { from: 10, price: 1000 }] }]) } });
});

test('each level pays its own band by its own month’s count (its adds and its agents’), and a refund gives back exactly what was paid and the count its place', async () => {
  const c = await chainShop(bed, 100_000);
  const a1 = await createAgent(bed, c, c.reseller, 1200);
  const a2 = await createAgent(bed, c, a1, 1500);
  // a1 pays 1100 from its own month's 3rd add (its adds and a2's); a2 pays 1300 from its 2nd.
  expect((await setPrices(c, c.reseller, a1, 1200, [{ from: 3, price: 1100 }])).body.code).toBe(1);
  expect((await setPrices(c, a1, a2, 1500, [{ from: 2, price: 1300 }])).body.code).toBe(1);
  await topUp(bed, c, c.reseller, a1, 20_000);
  await topUp(bed, c, a1, a2, 10_000);
  for (let i = 0; i < 3; i++) expect((await addBy(bed, c, a2)).body.code).toBe(1);
  expect(await charges(a2)).toEqual([-1500, -1300, -1300]);
  expect(await costs(a1)).toEqual([-1200, -1200, -1100]);
  expect(await costs(c.reseller)).toEqual([-1000, -1000, -1000]);
  expect([await monthCount(c.reseller), await monthCount(a1), await monthCount(a2)]).toEqual([3, 3, 3]);
  // Apple down: the 4th add is refunded exactly what it was charged, and leaves every level's count as it was.
  bed.sim.injectFault({ teamId: c.teamId, effect: 'forbidden', method: 'POST', path: '/v1/devices', times: 10 });
  const failed = await addBy(bed, c, a2);
  expect(failed.body.code).toBe(0);
  expect(errorOf(failed)).toBe('apple_unavailable');
  const a2Ledger = await ledgerOf(a2.userId);
  expect(a2Ledger.slice(-2).map((e) => [e.kind, e.amount])).toEqual([['charge', -1300], ['refund', 1300]]);
  expect([await monthCount(c.reseller), await monthCount(a1), await monthCount(a2)]).toEqual([3, 3, 3]);
  expect(await costs(a1)).toEqual([-1200, -1200, -1100]);
  expect(await balanceOf(a2.userId)).toBe(10_000 - 1500 - 1300 - 1300);
  await expectLedgerAddsUp(c.tenantId);
}, 120_000);

test('a race across a band boundary: of 10 concurrent adds the first 4 pay the price and the next 6 the band, exactly, at every level', async () => {
  const c = await chainShop(bed, 100_000);
  const a1 = await createAgent(bed, c, c.reseller, 1200);
  const a2 = await createAgent(bed, c, a1, 1500);
  expect((await setPrices(c, c.reseller, a1, 1200, [{ from: 6, price: 1000 }])).body.code).toBe(1);
  expect((await setPrices(c, a1, a2, 1500, [{ from: 5, price: 1250 }])).body.code).toBe(1);
  await topUp(bed, c, c.reseller, a1, 30_000);
  await topUp(bed, c, a1, a2, 20_000);
  const answers = await Promise.all(Array.from({ length: 10 }, () => addBy(bed, c, a2)));
  expect(answers.map((a) => a.body.code)).toEqual(Array(10).fill(1));
  // The ledger's order is the order the payments were taken in: the band starts at the 5th exactly.
  expect(await charges(a2)).toEqual([...Array(4).fill(-1500), ...Array(6).fill(-1250)]);
  // a1's costs are written as each add delivers: 5 at 1200 and 5 at the band, in whatever order they delivered.
  expect((await costs(a1)).sort()).toEqual([...Array(5).fill(-1000), ...Array(5).fill(-1200)].sort());
  expect(await balanceOf(a2.userId)).toBe(20_000 - 4 * 1500 - 6 * 1250);
  expect(await balanceOf(a1.userId)).toBe(30_000 - 20_000 + 4 * 1500 + 6 * 1250 - 5 * 1200 - 5 * 1000);
  expect([await monthCount(c.reseller), await monthCount(a1), await monthCount(a2)]).toEqual([10, 10, 10]);
  expect(bed.sim.registeredDevices(c.teamId)).toHaveLength(10);
  await expectLedgerAddsUp(c.tenantId);
}, 180_000);

/** Runs `between` once, just before the first add's payment is sent (after its price check), then lets it go. */
function beforeFirstPayment(between: () => Promise<unknown>): () => void {
  const TAP = 'suspend-between-check-and-charge';
  let done = false;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = JSON.stringify(args.input);
      if (!done && String(context.commandName).startsWith('TransactWrite') && input.includes(`"TableName":"${tableName('paymentHolds')}"`) && input.includes('"Put"')) {
        done = true;
        await between();
      }
      return next(args);
    },
    { step: 'initialize', name: TAP },
  );
  return () => documentClient().middlewareStack.remove(TAP);
}

test.each([
  ['the adding agent', 3],
  ['a middle agent above it', 2],
])('suspending %s between an add’s price check and its payment: refused, nothing charged anywhere, no slot spent', async (_who, level) => {
  const c = await chainShop(bed, 100_000);
  const a1 = await createAgent(bed, c, c.reseller, 1200);
  const a2 = await createAgent(bed, c, a1, 1500);
  const a3 = await createAgent(bed, c, a2, 1800);
  await topUp(bed, c, c.reseller, a1, 20_000);
  await topUp(bed, c, a1, a2, 10_000);
  await topUp(bed, c, a2, a3, 5_000);
  const chain = [c.reseller, a1, a2, a3];
  const before = await Promise.all(chain.map((m) => ledgerOf(m.userId)));
  const target = chain[level]!;
  const parent = chain[level - 1]!;
  const release = beforeFirstPayment(() => updateAgent(target.userId, parent.userId, { suspended: true }));
  let res: ApiResponse;
  try {
    res = await addBy(bed, c, a3);
  } finally {
    release();
  }
  expect(res.body).toMatchObject({ code: 0, data: { error: 'agent_suspended' } });
  expect(await Promise.all(chain.map((m) => ledgerOf(m.userId)))).toEqual(before);
  expect(await Promise.all(chain.map((m) => balanceOf(m.userId)))).toEqual([80_000, 10_000, 5_000, 5_000]);
  expect(await Promise.all(chain.map((m) => monthCount(m)))).toEqual([0, 0, 0, 0]);
  expect((await getAccount(c.accountId))!.free.iphone).toBe(100);
  expect(bed.sim.registeredDevices(c.teamId)).toHaveLength(0);
  await expectLedgerAddsUp(c.tenantId);
}, 120_000);
