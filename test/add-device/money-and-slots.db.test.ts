/**
 * Money and Apple slots under races and failures. Every test runs on its own tenant and accounts, so the
 * balance, the account's free slots and the simulator's registrations it counts are its own.
 *
 * The invariants: charged ⇒ delivered or refunded; a slot is spent only while a payment is held; a
 * registration Apple accepted is never lost.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { setClock } from '../../shared/clock';
import { atMinuteStart } from '../support/clock';
import { documentClient } from '../../shared/db/client';
import { getAccount } from '../../shared/db/repositories/account-repository';
import { getCode } from '../../shared/db/repositories/code-repository';
import { listDevicesByUserUdid } from '../../shared/db/repositories/device-repository';
import { takeHold } from '../../shared/domain/ledger/charges';
import { createCode } from '../../shared/domain/pricing/activation-codes';
import { priceFor } from '../../shared/domain/pricing/prices';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { getUser } from '../../shared/db/repositories/user-repository';
import { makeTenant } from '../support/fixtures';
import { balanceOf, newUser, simulatedAccount, startTestbed, udid25, udid40, type Testbed } from '../support/add-device-testbed';
import type { ApiResponse } from '../support/api';
import { expectLedgerAddsUp, ledgerOf } from '../support/ledger';

let bed: Testbed;
beforeAll(async () => {
  // The add's second look after a lost registration answer (3 s in production, config.ts), shortened: the
  // 503 below takes the same path, looking twice, in a fraction of the time.
  process.env.APPLE_ADD_RECHECK_MS = '300';
  bed = await startTestbed();
});
afterAll(() => bed.close());

interface Shop {
  host: string;
  tenantId: string;
  accountId: string;
  teamId: string;
  price: number;
  user: { userId: string; token: string };
}

/** A tenant with one instant account of its own, and a user holding `adds` adds' worth of balance. */
async function shop(adds: number, options: { slotsPerClass?: number } = {}): Promise<Shop> {
  const { tenantId, host } = await makeTenant('en');
  const { account, team } = await simulatedAccount(bed.sim, { mode: 'instant', tenantId, ...(options.slotsPerClass ? { slotsPerClass: options.slotsPerClass } : {}) });
  const probe = await newUser(0, tenantId);
  const price = await priceFor({ tenantId, userId: probe.userId, mode: 'instant', tier: 0, deviceClass: 'iphone' });
  const user = await newUser(price * adds, tenantId);
  return { host, tenantId, accountId: account.accountId, teamId: team.teamId, price, user };
}

function addOn(s: Shop, params: Record<string, unknown>, path = '/api/adddevice/v2'): Promise<ApiResponse> {
  return bed.api.request('POST', path, { headers: { Host: s.host, 'X-Lang': 'en' }, json: { token: s.user.token, ...params } });
}

const freeSlots = async (s: Shop) => (await getAccount(s.accountId))!.free.iphone;
const registrations = (s: Shop) => bed.sim.registeredDevices(s.teamId).length;
const delivered = (answers: ApiResponse[]) => answers.filter((a) => a.body.code === 1).length;

test('racing adds of different UDIDs with money for 2 of 8: 2 delivered, 2 charged, 2 slots, 2 registrations', async () => {
  const s = await shop(2);
  const answers = await Promise.all(Array.from({ length: 8 }, () => addOn(s, { udid: udid25() })));
  expect(delivered(answers)).toBe(2);
  expect(answers.filter((a) => a.body.code === 0).map((a) => (a.body.data as { error: string }).error)).toEqual(Array(6).fill('insufficient_balance'));
  expect(await balanceOf(s.user.userId)).toBe(0);
  expect(await freeSlots(s)).toBe(98);
  expect(registrations(s)).toBe(2);
  // The opening balance and exactly two charges: the six refused adds took nothing and wrote nothing.
  const ledger = await ledgerOf(s.user.userId);
  expect(ledger.map((e) => [e.kind, e.amount, e.balance_after])).toEqual([
    ['opening', 2 * s.price, 2 * s.price],
    ['charge', -s.price, s.price],
    ['charge', -s.price, 0],
  ]);
  await expectLedgerAddsUp(s.tenantId);
});

test('one activation code raced by 8 adds of different UDIDs: 1 delivered, the code used once, 1 slot, 1 registration', async () => {
  const s = await shop(0);
  const { code } = await createCode({ userId: s.user.userId, mode: 'instant', tier: 0 }, 1);
  const answers = await Promise.all(Array.from({ length: 8 }, () => addOn(s, { udid: udid40(), code })));
  expect(delivered(answers)).toBe(1);
  expect(answers.filter((a) => a.body.code === 0).every((a) => (a.body.data as { error: string }).error === 'code_used')).toBe(true);
  expect((await getCode(code))?.usedAt).toBeDefined();
  expect(await freeSlots(s)).toBe(99);
  expect(registrations(s)).toBe(1);
  await expectLedgerAddsUp(s.tenantId);
});

test('8 identical forced adds while the clock turns over seconds: 1 certificate, 1 charge, the rest add_in_progress', async () => {
  const s = await shop(5);
  const udid = udid25();
  // Apple takes 2 s over the profile, so the 7 others arrive while the first still holds the lock even on a
  // loaded machine (one that only started after the first had finished would be a new forced add, rightly).
  bed.sim.injectFault({ teamId: s.teamId, effect: 'slow', method: 'POST', path: '/v1/profiles', delayMs: 2_000 });
  // Every request sees its own second: the old guard compared add times and let a second add through.
  let tick = 0;
  const lastMsOfASecond = Math.floor(Date.now() / 1000) * 1000 + 999;
  const restore = setClock(() => lastMsOfASecond + tick++ * 1000);
  let answers: ApiResponse[];
  try {
    answers = await Promise.all(Array.from({ length: 8 }, () => addOn(s, { udid, force: 'true' })));
  } finally {
    restore();
  }
  expect(delivered(answers)).toBe(1);
  expect(answers.filter((a) => a.body.code === 0).map((a) => (a.body.data as { error: string }).error)).toEqual(Array(7).fill('add_in_progress'));
  expect(await listDevicesByUserUdid(s.user.userId, udid)).toHaveLength(1);
  expect(await balanceOf(s.user.userId)).toBe(4 * s.price);
  expect(registrations(s)).toBe(1);
  await expectLedgerAddsUp(s.tenantId);
});

test('one user gets one add budget of 60 a minute across v2 and both legacy routes', async () => {
  const s = await shop(0);
  const paths = ['/api/adddevice/v2', '/api/adddevice', '/api/addyydevice'];
  // The 63 requests start at the top of a calendar minute (clock moving with real time), so the window cannot
  // turn over between the 60th and the refusals on a slow machine.
  await atMinuteStart(async () => {
    // Invalid UDIDs: each request is counted and refused before any business work.
    for (let i = 0; i < 60; i++) {
      const res = await addOn(s, { udid: 'bad' }, paths[i % 3]);
      expect(res.status).toBe(200);
    }
    for (const path of paths) {
      const res = await addOn(s, { udid: 'bad' }, path);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: 0, data: { error: 'rate_limited' } });
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    }
  });
  await expectLedgerAddsUp(s.tenantId);
});

describe('a failure after the payment is held', () => {
  test('Apple refuses the registration: the hold is released and the slot given back', async () => {
    const s = await shop(1);
    bed.sim.injectFault({ teamId: s.teamId, method: 'POST', path: '/v1/devices', effect: 'forbidden' });
    const res = await addOn(s, { udid: udid25() });
    expect(res.body).toMatchObject({ code: 0, data: { error: 'apple_unavailable' } });
    expect(await balanceOf(s.user.userId)).toBe(s.price);
    expect(await freeSlots(s)).toBe(100);
    expect(registrations(s)).toBe(0);
    // A released hold is one charge and one refund, with its reason.
    const [, charge, refund] = await ledgerOf(s.user.userId);
    expect(charge).toMatchObject({ kind: 'charge', amount: -s.price, balance_after: 0, mode: 'instant', tier: 0 });
    expect(refund).toMatchObject({ kind: 'refund', amount: s.price, balance_after: s.price, hold_id: charge!.hold_id, kid: charge!.kid, reason: 'apple_unavailable' });
    await expectLedgerAddsUp(s.tenantId);
  });

  test('Apple registers but its answer is lost: the add finds the registration and delivers, one slot, one charge', async () => {
    const s = await shop(1);
    bed.sim.injectFault({ teamId: s.teamId, method: 'POST', path: '/v1/devices', effect: 'lose-answer' });
    const udid = udid25();
    const res = await addOn(s, { udid });
    expect(res.body.code).toBe(1);
    expect(await balanceOf(s.user.userId)).toBe(0);
    expect(await freeSlots(s)).toBe(99);
    expect(registrations(s)).toBe(1);
    expect(await listDevicesByUserUdid(s.user.userId, udid)).toHaveLength(1);
    await expectLedgerAddsUp(s.tenantId);
  });

  test('Apple fails without registering: the lookup finds nothing, nothing is charged, and the worker gives the slot back once no answer can come', async () => {
    const s = await shop(1);
    bed.sim.injectFault({ teamId: s.teamId, method: 'POST', path: '/v1/devices', effect: 'unavailable' });
    const res = await addOn(s, { udid: udid25() });
    expect(res.body).toMatchObject({ code: 0, data: { error: 'apple_unavailable' } });
    expect(await balanceOf(s.user.userId)).toBe(s.price);
    expect(await freeSlots(s)).toBe(99);
    await runReservationWorker(Math.floor(Date.now() / 1000) + 301);
    expect(await freeSlots(s)).toBe(100);
    expect(registrations(s)).toBe(0);
    await expectLedgerAddsUp(s.tenantId);
  });

  test('an identical add waiting behind one that fails, with money for one add: it is charged after the refund and delivers', async () => {
    const s = await shop(1);
    // The first add's registration answer is lost: it looks the UDID up, once more 3 s later, and gives up.
    bed.sim.injectFault({ teamId: s.teamId, method: 'POST', path: '/v1/devices', effect: 'unavailable' });
    const udid = udid25();
    const first = addOn(s, { udid });
    // The second starts once the first holds the payment, so what it reads beside its lock shows no money;
    // it waits for the lock, and must decide on the balance as the first add's refund left it.
    while ((await balanceOf(s.user.userId)) !== 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = addOn(s, { udid });
    const [a, b] = await Promise.all([first, second]);
    expect(a.body).toMatchObject({ code: 0, data: { error: 'apple_unavailable' } });
    expect(b.body).toMatchObject({ code: 1 });
    expect(await balanceOf(s.user.userId)).toBe(0);
    expect(registrations(s)).toBe(1);
    await expectLedgerAddsUp(s.tenantId);
  });

  describe('the final transaction is cancelled', () => {
    let failuresLeft = 0;
    const FAULT = 'money-test-final-transaction-fault';
    beforeAll(() => {
      documentClient().middlewareStack.add(
        (next) => async (args) => {
          // The add's final transaction is the one that completes a payment hold.
          if (failuresLeft > 0 && JSON.stringify(args.input).includes('"completed"')) {
            failuresLeft--;
            throw new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: [{ Code: 'TransactionConflict' }] });
          }
          return next(args);
        },
        { step: 'initialize', name: FAULT },
      );
    });
    afterAll(() => {
      documentClient().middlewareStack.remove(FAULT);
    });

    test('once: it is retried and the add delivers, charged once', async () => {
      const s = await shop(1);
      failuresLeft = 1;
      const res = await addOn(s, { udid: udid25() });
      expect(res.body.code).toBe(1);
      expect(failuresLeft).toBe(0);
      expect(await balanceOf(s.user.userId)).toBe(0);
      expect(await freeSlots(s)).toBe(99);
      await expectLedgerAddsUp(s.tenantId);
    });

    test('every time: the hold is refunded, the registration kept, and the next add reuses it without a new slot', async () => {
      const s = await shop(1);
      const udid = udid25();
      failuresLeft = 3;
      const res = await addOn(s, { udid });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 0, data: { error: 'add_not_recorded' } });
      expect(await balanceOf(s.user.userId)).toBe(s.price);
      const [kept] = await listDevicesByUserUdid(s.user.userId, udid);
      expect(kept).toMatchObject({ zt: 'failed', account_id: s.accountId });
      expect(kept!.apple_device_id).not.toBe('');
      expect(await freeSlots(s)).toBe(99);
      expect(registrations(s)).toBe(1);

      const again = await addOn(s, { udid });
      expect(again.body.code).toBe(1);
      expect(await balanceOf(s.user.userId)).toBe(0);
      expect(await freeSlots(s)).toBe(99);
      expect(registrations(s)).toBe(1);
      await expectLedgerAddsUp(s.tenantId);
    });
  });
});

test('a hold left by an add that died is refunded by the worker, once', async () => {
  const s = await shop(1);
  const old = Math.floor(Date.now() / 1000) - 3600;
  expect(await takeHold({ holdId: `h-stale-${s.user.userId}`, userId: s.user.userId, tenantId: s.tenantId, udid: udid25(), charge: { kind: 'balance', amount: s.price }, createdAt: old }, undefined)).toEqual({ taken: true });
  expect(await balanceOf(s.user.userId)).toBe(0);
  const first = await runReservationWorker(Math.floor(Date.now() / 1000));
  expect(first.releasedHolds).toBeGreaterThanOrEqual(1);
  expect(await balanceOf(s.user.userId)).toBe(s.price);
  await runReservationWorker(Math.floor(Date.now() / 1000));
  expect((await getUser(s.user.userId))!.balance).toBe(s.price);
  await expectLedgerAddsUp(s.tenantId);
});
