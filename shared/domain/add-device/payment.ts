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
import { effectivePrice, priceFor, priceItem } from '../pricing/prices';
import type { Charge } from '../../records/reservation';
import type { AddRequest } from './add-request';
import type { DevicePool } from '../../records/device';
import type { AgentQuote } from '../agents/agent-prices';
import type { LedgerHead } from '../../records/ledger-entry';

export interface Payment {
  charge: Charge;
  tier: number;
  code?: ActivationCode;
  /** An agent's add: the heads of the levels above as the quote read them (tried first by the final write). */
  uplineHeads?: LedgerHead[];
}

/**
 * `priceRows`: the price rows of the requested tier already read with the add's snapshot, when they were.
 * `agent`: an agent's quote (shared/domain/agents): its price, and what each level above it is credited and
 * pays when the add delivers.
 */
export async function choosePayment(input: { request: AddRequest; user: User; tenantId: string; freeTier: number | undefined; priceRows?: ReadonlyMap<string, number>; agent?: AgentQuote | undefined }): Promise<Payment> {
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
    const { price, upline } = input.agent;
    if (user.balance < price) throw insufficientBalance(price, user.balance);
    return { charge: price > 0 ? { kind: 'balance', amount: price, upline } : { kind: 'free' }, tier, uplineHeads: input.agent.heads };
  }
  const amount = input.priceRows
    ? effectivePrice(input.priceRows, { tenantId, userId: user.userId }, priceItem(request.mode, tier, request.deviceClass))
    : await priceFor({ tenantId, userId: user.userId, mode: request.mode, tier, deviceClass: request.deviceClass });
  if (user.balance < amount) throw insufficientBalance(amount, user.balance);
  return { charge: amount > 0 ? { kind: 'balance', amount } : { kind: 'free' }, tier };
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
 */
export async function holdPayment(
  payment: Payment,
  owner: { user: User; tenantId: string; udid: string; pool: DevicePool },
  delivers: { kid: string; reservationId: string | undefined; mode: 'instant' | 'review' },
  now: number,
): Promise<PaymentHold> {
  const { charge } = payment;
  const hold: PaymentHold = {
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
  const outcome = await takeHold(hold, payment.code, headOf(owner.user));
  if (outcome.taken) return hold;
  if (outcome.reason === 'code_used') throw new DomainError('add_failed', 'code_used');
  throw insufficientBalance(charge.kind === 'balance' ? charge.amount : 0, outcome.balance);
}
