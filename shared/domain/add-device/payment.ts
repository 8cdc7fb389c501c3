/**
 * How an add is paid — free (private pool, free re-issue), by activation code (which fixes the tier) or from
 * the balance at the price for (mode, tier, class) — and the hold that takes the payment before Apple is
 * called, so that no device is registered for an add nobody paid for.
 */
import type { PaymentHold } from '../../db/repositories/payment-hold-repository';
import { headOf, takeHold } from '../ledger/charges';
import { randomId } from '../../ids';
import type { User } from '../../records/user';
import { DomainError } from '../errors';
import type { ActivationCode } from '../../records/activation-code';
import { findCode } from '../pricing/activation-codes';
import { bandedPrice, priceItem, priceScopes } from '../pricing/prices';
import { getPriceBands, getPriceRows } from '../../db/repositories/price-repository';
import { addCountPart, readAddCounts } from '../../db/repositories/add-count-repository';
import { activeUserCheck } from '../../db/repositories/ledger-repository';
import { addMonth, type PriceBand } from '../../records/price-band';
import type { Charge, UplineShare } from '../../records/reservation';
import type { AddRequest } from './add-request';
import type { DevicePool } from '../../records/device';
import type { AddCounting, AgentQuote } from '../agents/agent-prices';
import type { LedgerHead } from '../../records/ledger-entry';

export interface Payment {
  charge: Charge;
  tier: number;
  code?: ActivationCode;
  /** An agent's add: the heads of the levels above as the quote read them (tried first by the final write). */
  uplineHeads?: LedgerHead[];
  /** An add paid from the balance: the month's counts it moves, and those its price was decided on. */
  counting?: AddCounting;
  /** The price again for other counts of the month (another add got there first). */
  requote?: (counts: ReadonlyMap<string, number>) => { price: number; upline?: UplineShare[]; counting: AddCounting };
}

/**
 * `priceRows`: the price rows of the requested tier already read with the add's snapshot, when they were.
 * `agent`: an agent's quote (shared/domain/agents): its price, and what each level above it is credited and
 * pays when the add delivers.
 */
export async function choosePayment(input: { request: AddRequest; user: User; tenantId: string; freeTier: number | undefined; priceRows?: ReadonlyMap<string, number>; priceBands?: ReadonlyMap<string, readonly PriceBand[]>; monthAdds?: number; now: number; agent?: AgentQuote | undefined }): Promise<Payment> {
  const { request, user, tenantId, freeTier } = input;
  if (freeTier !== undefined) return { charge: { kind: 'free' }, tier: freeTier };
  if (request.pool === 1) return { charge: { kind: 'free' }, tier: request.tier ?? 0 };
  if (request.code) {
    const code = await findCode(request.code);
    if (!code || code.tenantId !== tenantId) throw new DomainError('add_failed', 'code_invalid');
    if (code.usedAt !== undefined) throw new DomainError('add_failed', 'code_used');
    if (code.mode !== request.mode) throw new DomainError('add_failed', 'code_mode_mismatch', { params: { mode: code.mode } });
    return { charge: { kind: 'code', code: code.code }, tier: code.tier, code };
  }
  const tier = request.tier ?? 0;
  if (input.agent) {
    const { price, upline, counting, requote } = input.agent;
    if (user.balance < price) throw insufficientBalance(price, user.balance);
    return { charge: price > 0 ? { kind: 'balance', amount: price, upline } : { kind: 'free' }, tier, uplineHeads: input.agent.heads, counting, requote };
  }
  const item = priceItem(request.mode, tier, request.deviceClass);
  const who = { tenantId, userId: user.userId };
  const month = addMonth(input.now);
  // The price of the month's next add (volume bands), from the rows and count the add's snapshot read.
  const rows = input.priceRows ?? (await getPriceRows(priceScopes(who), item));
  const bands = input.priceBands ?? (input.priceRows ? new Map<string, PriceBand[]>() : await getPriceBands(priceScopes(who), item));
  const requote = (counts: ReadonlyMap<string, number>) => {
    const read = counts.get(user.userId) ?? 0;
    const { price, banded } = bandedPrice(rows, bands, who, item, read + 1);
    return { price, counting: { month, users: [{ userId: user.userId, read: banded ? read : undefined }] } };
  };
  const counts = new Map([[user.userId, input.monthAdds ?? (await readAddCounts([user.userId], month)).get(user.userId) ?? 0]]);
  const { price: amount, counting } = requote(counts);
  if (user.balance < amount) throw insufficientBalance(amount, user.balance);
  return { charge: amount > 0 ? { kind: 'balance', amount } : { kind: 'free' }, tier, counting, requote };
}

export function insufficientBalance(price: number, balance: number): DomainError {
  return new DomainError('add_failed', 'insufficient_balance', { params: { price: (price / 100).toFixed(2), balance: (balance / 100).toFixed(2) }, data: { price, balance } });
}

/**
 * Takes the payment (a conditional debit, or the code's claim) with its ledger entry and records the hold.
 * A free add's hold takes nothing (no ledger entry): it is there for the slot notes, so the sweep can settle
 * what a free add that died left on Apple's side as it does a paid one's. Refused exactly as the checks above would refuse it, now that a concurrent add
 * may have got there first: the balance no longer covers the price, or the code was claimed. `delivers`
 * names what the add will deliver (the kid, and the reservation in review mode), for the charge entry.
 *
 * The same transaction moves the month's add counts (volume bands) on the condition that those the price was
 * decided on are still as read — a concurrent add that got there first makes this one priced again on the new
 * counts — and, for an agent's add, holds only while neither the agent nor any reseller above it is suspended:
 * a suspension landing between the price check and this write refuses the add with nothing taken anywhere.
 * The hold's charge is what was taken: the caller delivers or refunds that, not the first price.
 */
export async function holdPayment(
  payment: Payment,
  owner: { user: User; tenantId: string; udid: string; pool: DevicePool },
  delivers: { kid: string; reservationId: string | undefined; mode: 'instant' | 'review' },
  now: number,
): Promise<PaymentHold> {
  let { charge } = payment;
  const agent = owner.user.upline.length > 0;
  let counting = charge.kind === 'balance' ? payment.counting : undefined;
  for (let attempt = 0; attempt < COUNT_RACES; attempt++) {
    if (charge.kind === 'balance' && counting) charge = { ...charge, counted: { month: counting.month, users: counting.users.map((u) => u.userId) } };
    const hold = holdOf(charge);
    const guard = { counts: counting ? counting.users.map((u) => addCountPart(u.userId, counting!.month, u.read)) : [], agent, upline: agent ? owner.user.upline.map(activeUserCheck) : [] };
    const outcome = await takeHold(hold, payment.code, headOf(owner.user), guard);
    if (outcome.taken) return hold;
    if (outcome.reason === 'code_used') throw new DomainError('add_failed', 'code_used');
    if (outcome.reason === 'suspended') throw new DomainError('add_failed', 'agent_suspended');
    if (outcome.reason === 'insufficient_balance') throw insufficientBalance(charge.kind === 'balance' ? charge.amount : 0, outcome.balance);
    // Another add of the chain moved a count this price was decided on: price the add again on the counts now.
    const requoted = payment.requote!(await readAddCounts(counting!.users.map((u) => u.userId), counting!.month));
    counting = requoted.counting;
    charge = requoted.price > 0 ? { kind: 'balance', amount: requoted.price, ...(requoted.upline ? { upline: requoted.upline } : {}) } : { kind: 'free' };
    if (charge.kind === 'free') counting = undefined;
    await pause(attempt);
  }
  throw new Error('The month’s add counts kept moving; try again');

  function holdOf(charge: Charge): PaymentHold {
    return {
      holdId: randomId('h', 16),
      userId: owner.user.userId,
      tenantId: owner.tenantId,
      udid: owner.udid,
      charge,
      createdAt: now,
      kid: delivers.kid,
      ...(delivers.reservationId ? { reservationId: delivers.reservationId } : {}),
      mode: delivers.mode,
      tier: payment.tier,
      pool: owner.pool,
    };
  }
}

/** Tries after lost races on a month's count: every retry follows an add that was paid. */
const COUNT_RACES = 50;
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1_000, 10 * 2 ** attempt)));
