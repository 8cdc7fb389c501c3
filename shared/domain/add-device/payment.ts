/**
 * DESIGN §2 step 4: how an add is paid — free (private pool, free re-issue), by activation code (which fixes
 * the tier) or from the balance at the price for (mode, tier, class). Checked before Apple is called; the
 * debit or the code's use happens in the add's transaction, whose conditions check again.
 */
import { codeUseItem } from '../../db/repositories/code-repository';
import { balanceDebitItem } from '../../db/repositories/issued-device-repository';
import type { User } from '../users/user';
import { DomainError } from '../errors';
import { findCode, type ActivationCode } from '../pricing/activation-codes';
import { priceFor } from '../pricing/prices';
import type { Charge } from '../reservations/reservation';
import type { AddRequest } from './add-request';

export interface Payment {
  charge: Charge;
  tier: number;
  code?: ActivationCode;
}

export async function choosePayment(input: { request: AddRequest; user: User; tenantId: string; freeTier: number | undefined }): Promise<Payment> {
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
  const amount = await priceFor({ tenantId, userId: user.userId, mode: request.mode, tier, deviceClass: request.deviceClass });
  if (user.balance < amount) throw insufficientBalance(amount, user.balance);
  return { charge: amount > 0 ? { kind: 'balance', amount } : { kind: 'free' }, tier };
}

export function insufficientBalance(price: number, balance: number): DomainError {
  return new DomainError('add_failed', 'insufficient_balance', { params: { price: (price / 100).toFixed(2), balance: (balance / 100).toFixed(2) }, data: { price, balance } });
}

/** The transaction item that takes the payment, if any. */
export function paymentItem(payment: Payment, userId: string, at: number) {
  if (payment.charge.kind === 'balance') return balanceDebitItem(userId, payment.charge.amount);
  if (payment.charge.kind === 'code' && payment.code) return codeUseItem(payment.code, userId, at);
  return undefined;
}
