/**
 * The balance and the ledger: every change written with its entry in one transaction, `balance_after` exact
 * under concurrency, the reseller's view over the API, and the operator's reconciliation.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { runAdmin } from '../../infra/admin/cli';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { getUser } from '../../shared/db/repositories/user-repository';
import { writeWithLedger } from '../../shared/domain/ledger/ledger';
import { checkLedger } from '../../shared/domain/ledger/reconcile';
import { createCode } from '../../shared/domain/pricing/activation-codes';
import { priceItem, setPrice, userScope } from '../../shared/domain/pricing/prices';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { changeTenantSettings } from '../../shared/domain/tenants/tenant-service';
import { credit } from '../../shared/domain/users/user-service';
import { admin } from '../support/admin-cli';
import { makeTenant, makeUser } from '../support/fixtures';
import { expectLedgerAddsUp, ledgerOf } from '../support/ledger';
import { simulatedAccount, startTestbed, udid25, type Testbed } from '../support/add-device-testbed';
import type { ApiResponse } from '../support/api';

let bed: Testbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

const nowS = () => Math.floor(Date.now() / 1000);

async function shop(balance: number) {
  const { tenantId, host } = await makeTenant('en');
  const { user, token } = await makeUser({ tenantId, balance });
  return { tenantId, host, userId: user.userId, token };
}
type Shop = Awaited<ReturnType<typeof shop>>;

const call = (s: Shop, path: string, params: Record<string, string | number> = {}, lang = 'en'): Promise<ApiResponse> =>
  bed.api.request('POST', path, { headers: { Host: s.host, 'X-Lang': lang }, json: { token: s.token, ...params } });

describe('written with the money', () => {
  test('a user’s starting balance and the operator’s credits are entries; balance_after runs through them', async () => {
    const s = await shop(1_000);
    await credit(s.userId, 250, nowS(), 'bank transfer #17');
    expect(await ledgerOf(s.userId)).toEqual([
      expect.objectContaining({ seq: 1, kind: 'opening', amount: 1_000, balance_after: 1_000 }),
      expect.objectContaining({ seq: 2, kind: 'credit', amount: 250, balance_after: 1_250, note: 'bank transfer #17' }),
    ]);
    expect((await getUser(s.userId))!.balance).toBe(1_250);
  });

  test('20 concurrent changes of one user: seq 1…21 without a gap, each balance_after exact, the sum the balance', async () => {
    const s = await shop(10_000);
    const amounts = Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? -(100 + i) : 50 + i));
    const outcomes = await Promise.all(amounts.map((amount) => writeWithLedger({ userId: s.userId, change: { amount, kind: amount < 0 ? 'charge' : 'credit', ref: {}, at: nowS() } })));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const entries = await ledgerOf(s.userId);
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    let running = 0;
    for (const entry of entries) {
      running += entry.amount;
      expect(entry.balance_after).toBe(running);
    }
    expect((await getUser(s.userId))!.balance).toBe(10_000 + amounts.reduce((a, b) => a + b, 0));
    await expectLedgerAddsUp(s.tenantId);
  }, 120_000);

  test('a balance that predates the ledger becomes its opening entry with the first change', async () => {
    const s = await shop(0);
    await documentClient().send(new UpdateCommand({ TableName: tableName('users'), Key: { user_id: s.userId }, UpdateExpression: 'SET balance = :b', ExpressionAttributeValues: { ':b': 700 } }));
    expect((await checkLedger(s.tenantId)).differences).toEqual([expect.objectContaining({ user_id: s.userId, problem: 'sum_differs', expected: 700, found: 0 })]);
    await credit(s.userId, 300, nowS());
    expect((await ledgerOf(s.userId)).map((e) => [e.kind, e.amount, e.balance_after])).toEqual([
      ['opening', 700, 700],
      ['credit', 300, 1_000],
    ]);
    await expectLedgerAddsUp(s.tenantId);
  });
});

describe('the reseller’s view over the API', () => {
  test('instant, coded, refused, failed and review-refunded adds: the balance, and a ledger entry for each change', async () => {
    const s = await shop(0);
    const { team } = await simulatedAccount(bed.sim, { mode: 'instant', tenantId: s.tenantId });
    await simulatedAccount(bed.sim, { mode: 'review', tenantId: s.tenantId });
    await setPrice(userScope(s.userId), priceItem('instant', 0, 'iphone'), 700);
    await credit(s.userId, 2_000, nowS());

    const instant = await call(s, '/api/adddevice/v2', { udid: udid25() });
    expect(instant.body.code).toBe(1);
    const code = await createCode({ userId: s.userId, mode: 'instant', tier: 2 }, nowS());
    const coded = await call(s, '/api/adddevice/v2', { udid: udid25(), code: code.code });
    expect(coded.body.code).toBe(1);
    bed.sim.injectFault({ teamId: team.teamId, method: 'POST', path: '/v1/devices', effect: 'unavailable' });
    const failed = await call(s, '/api/adddevice/v2', { udid: udid25() });
    expect(failed.body).toMatchObject({ code: 0, data: { error: 'apple_unavailable' } });
    const reviewUdid = udid25();
    const review = await call(s, '/api/adddevice/v2', { udid: reviewUdid, mode: 'review' });
    expect(review.body.code).toBe(1);
    bed.sim.markDeviceIneligible(reviewUdid);
    await runReservationWorker(nowS() + 3600);
    const refused = await call(s, '/api/adddevice/v2', { udid: udid25(), warranty: '6' });
    expect(refused.body).toMatchObject({ code: 0, data: { error: 'insufficient_balance' } });

    const balance = await call(s, '/api/user/balance', {});
    expect(balance.body).toMatchObject({ code: 1, ysucc: 'Ysucc', data: { balance: 1_300, currency: 'CNY' } });
    const prices = (balance.body.data as { prices: Array<Record<string, unknown>> }).prices;
    expect(prices).toContainEqual({ mode: 'instant', warranty: 0, device_type: 'iphone', price: 700, personal: true });
    expect(prices).toContainEqual({ mode: 'review', warranty: 0, device_type: 'iphone', price: 600, personal: false });

    const ledger = await call(s, '/api/user/ledger', {});
    const items = (ledger.body.data as { items: Array<Record<string, unknown>> }).items;
    const reviewId = (review.body.data as { id: string }).id;
    // Newest first: review refund, review charge, failed add's refund and charge, code claim, instant charge, credit.
    expect(items.map((e) => [e.kind, e.amount, e.balance_after])).toEqual([
      ['review_refund', 600, 1_300],
      ['charge', -600, 700],
      ['refund', 700, 1_300],
      ['charge', -700, 600],
      ['charge', 0, 1_300],
      ['charge', -700, 1_300],
      ['credit', 2_000, 2_000],
    ]);
    expect(items[0]).toMatchObject({ reservation_id: reviewId, udid: reviewUdid, mode: 'review', reason: 'apple_status_ineligible' });
    expect(items[1]).toMatchObject({ reservation_id: reviewId, mode: 'review', tier: 0 });
    expect(items[2]).toMatchObject({ reason: 'apple_unavailable', hold_id: items[3]!.hold_id, kid: items[3]!.kid });
    expect(items[4]).toMatchObject({ code: code.code, tier: 2, kid: (coded.body.data as { id: string }).id });
    expect(items[5]).toMatchObject({ kid: (instant.body.data as { id: string }).id, mode: 'instant', tier: 0 });
    expect(ledger.body.data!.next).toBe('');
    await expectLedgerAddsUp(s.tenantId);

    // Pages of 3, then filters by kind and time.
    const first = await call(s, '/api/user/ledger', { limit: 3 });
    expect((first.body.data as { items: unknown[] }).items).toHaveLength(3);
    const second = await call(s, '/api/user/ledger', { limit: 3, cursor: String(first.body.data!.next) });
    const third = await call(s, '/api/user/ledger', { limit: 3, cursor: String(second.body.data!.next) });
    expect([...(first.body.data as { items: unknown[] }).items, ...(second.body.data as { items: unknown[] }).items, ...(third.body.data as { items: unknown[] }).items]).toEqual(items);
    expect(third.body.data!.next).toBe('');
    const refunds = await call(s, '/api/user/ledger', { kind: 'refund,REVIEW_REFUND' });
    expect((refunds.body.data as { items: Array<{ kind: string }> }).items.map((e) => e.kind)).toEqual(['review_refund', 'refund']);
    const future = await call(s, '/api/user/ledger', { from: nowS() + 7_200 });
    expect((future.body.data as { items: unknown[] }).items).toEqual([]);
    const past = await call(s, '/api/user/ledger', { to: nowS() - 86_400 });
    expect((past.body.data as { items: unknown[] }).items).toEqual([]);
  });

  test('20 concurrent adds with money for 3: exactly 3 charges, the ledger adds up', async () => {
    const s = await shop(0);
    await simulatedAccount(bed.sim, { mode: 'instant', tenantId: s.tenantId });
    await credit(s.userId, 3_000, nowS());
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(s, '/api/adddevice/v2', { udid: udid25() })));
    expect(answers.filter((a) => a.body.code === 1)).toHaveLength(3);
    const items = (((await call(s, '/api/user/ledger', { limit: 100 })).body.data as { items: Array<{ kind: string; amount: number; balance_after: number }> }).items);
    expect(items.map((e) => [e.kind, e.amount, e.balance_after])).toEqual([
      ['charge', -1_000, 0],
      ['charge', -1_000, 1_000],
      ['charge', -1_000, 2_000],
      ['credit', 3_000, 3_000],
    ]);
    await expectLedgerAddsUp(s.tenantId);
  }, 120_000);

  test('an instant add still costs 10 DynamoDB calls: the entry rides in the hold’s transaction', async () => {
    const s = await shop(0);
    await simulatedAccount(bed.sim, { mode: 'instant', tenantId: s.tenantId });
    await credit(s.userId, 1_000, nowS());
    const calls: Array<{ command: string; input: string }> = [];
    const TAP = 'ledger-test-call-count';
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        calls.push({ command: String(context.commandName), input: JSON.stringify(args.input) });
        return next(args);
      },
      { step: 'initialize', name: TAP },
    );
    try {
      expect((await call(s, '/api/adddevice/v2', { udid: udid25() })).body.code).toBe(1);
    } finally {
      documentClient().middlewareStack.remove(TAP);
    }
    // The tenant of the Host is cached in the function container when deployed (the tests turn the cache off).
    expect(calls.filter((c) => !/"TableName":"[^"]*tenant(s|-hosts)"/.test(c.input))).toHaveLength(10);
    const hold = calls.filter((c) => c.command.startsWith('TransactWrite') && c.input.includes('"kind":"charge"'));
    expect(hold).toHaveLength(1);
    expect(hold[0]!.input).toMatch(/ledger_seq = :prev/);
  });

  test('the tenant’s currency; a token on another tenant’s site reads no money there', async () => {
    const s = await shop(500);
    await changeTenantSettings(s.tenantId, { settings: { currency: 'USD' } });
    expect((await call(s, '/api/user/balance')).body).toMatchObject({ code: 1, data: { balance: 500, currency: 'USD' } });
    const elsewhere = await makeTenant('en');
    const there = { ...s, host: elsewhere.host };
    expect((await call(there, '/api/user/balance')).body).toMatchObject({ code: 10, data: { error: 'token_invalid' } });
    expect((await call(there, '/api/user/ledger')).body).toMatchObject({ code: 10, data: { error: 'token_invalid' } });
  });

  test.each([
    ['/api/user/ledger', { limit: 0 }, 'limit'],
    ['/api/user/ledger', { limit: 101 }, 'limit'],
    ['/api/user/ledger', { kind: 'gift' }, 'kind'],
    ['/api/user/ledger', { kind: 'charge,gift' }, 'kind'],
    ['/api/user/ledger', { from: -1 }, 'from'],
    ['/api/user/ledger', { to: '12:00' }, 'to'],
    ['/api/user/ledger', { cursor: 'a.b' }, 'cursor'],
  ])('%s %j → invalid_value naming %s', async (path, params, field) => {
    const s = await shop(0);
    const res = await call(s, path, params as Record<string, string | number>);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 40002, ysucc: 'Yerror', data: { error: 'invalid_value', fields: [field] } });
  });

  test('a forged cursor, an unknown parameter and a reversed range are refused in the caller’s language', async () => {
    const s = await shop(0);
    const forged = Buffer.from(JSON.stringify({ s: 0 })).toString('base64url');
    expect((await call(s, '/api/user/ledger', { cursor: forged }, 'es')).body).toMatchObject({ code: 40002, data: { error: 'cursor_invalid' }, msg: expect.stringMatching(/^cursor no válido/) });
    expect((await call(s, '/api/user/balance', { uid: 'u_other' }, 'vi')).body).toMatchObject({ code: 40002, msg: 'Tham số không xác định: uid', data: { error: 'unknown_param', fields: ['uid'] } });
    expect((await call(s, '/api/user/ledger', { from: 10, to: 5 }, 'ar')).body).toMatchObject({ code: 40002, data: { error: 'range_invalid', fields: ['from', 'to'] } });
  });
});

describe('the operator’s reconciliation', () => {
  test('user ledger prints the entries, as JSON or CSV', async () => {
    const s = await shop(1_000);
    await credit(s.userId, 5, nowS(), 'refund, "goodwill"');
    const json = await admin('user', 'ledger', '--user', s.userId);
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({ user_id: s.userId, balance: 1_005, entries: [{ seq: 1, kind: 'opening', amount: 1_000 }, { seq: 2, kind: 'credit', amount: 5, balance_after: 1_005 }] });
    let stdout = '';
    expect(await runAdmin(['user', 'ledger', '--user', s.userId, '--csv'], (t) => (stdout += t), () => undefined)).toBe(0);
    const lines = stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('seq,time,kind,amount,balance_after,hold_id,kid,reservation_id,udid,mode,tier,code,plan,reason,note,agent_id,level');
    expect(lines[2]).toMatch(/^2,\d+,credit,5,1005,,,,,,,,,,"refund, ""goodwill""",,$/);
  });

  test('ledger check passes on a clean tenant and names each difference otherwise, exiting 1', async () => {
    const s = await shop(1_000);
    const clean = await admin('ledger', 'check', '--tenant', s.tenantId);
    expect(clean).toMatchObject({ code: 0, json: { ok: true, users: 1, entries: 1, differences: [] } });
    // A balance changed behind the ledger's back, and a charge whose certificate never existed.
    await documentClient().send(new UpdateCommand({ TableName: tableName('users'), Key: { user_id: s.userId }, UpdateExpression: 'SET balance = balance + :b', ExpressionAttributeValues: { ':b': 1 } }));
    const broken = await admin('ledger', 'check', '--tenant', s.tenantId);
    expect(broken.code).toBe(1);
    expect(broken.json).toMatchObject({ ok: false, differences: [{ user_id: s.userId, problem: 'sum_differs', expected: 1_001, found: 1_000 }] });
    const one = await admin('ledger', 'check', '--user', s.userId);
    expect(one).toMatchObject({ code: 1, json: { users: 1, differences: [{ problem: 'sum_differs' }] } });
  });

  test('a kept charge whose certificate does not exist is not_delivered', async () => {
    const s = await shop(1_000);
    await writeWithLedger({ userId: s.userId, change: { amount: -100, kind: 'charge', ref: { hold_id: 'h_ghost', kid: 'k_ghost' }, at: nowS() } });
    expect((await checkLedger(s.tenantId)).differences).toEqual([{ user_id: s.userId, tenant_id: s.tenantId, problem: 'not_delivered', hold_id: 'h_ghost', kid: 'k_ghost' }]);
  });
});
