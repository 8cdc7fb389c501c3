/**
 * Payments and refunds of adds and reservations, each with its ledger entry in the same transaction:
 *
 * - `takeHold(hold, code, head)` — the add's payment held before Apple is called: the debit (or the code's
 *   claim), the `charge` entry and the hold record, all or nothing. An add that completes its hold writes no
 *   further entry, so a delivered add is one charge.
 * - `releaseHold(hold, at, reason)` — the hold released and exactly its payment given back, with a `refund`
 *   entry naming the reason; nothing when the hold was already settled (so a hold is refunded at most once).
 * - `refundCharge(…)` — a charge given back together with the caller's own parts (a failed reservation's
 *   end): a `review_refund` entry.
 */
import { codeReleasePart, codeUsePart } from '../../db/repositories/code-repository';
import { holdPutPart, holdReleasePart, type PaymentHold } from '../../db/repositories/payment-hold-repository';
import { transactWrite, type TransactionPart } from '../../db/transactions';
import type { ActivationCode } from '../../records/activation-code';
import type { Charge } from '../../records/reservation';
import type { User } from '../../records/user';
import type { LedgerHead, LedgerKind, LedgerRef } from '../../records/ledger-entry';
import { snakeCaseFields } from '../../snake-case-fields';
import { writeWithLedger } from './ledger';

/** The head of a user as the add read it (strongly consistent, with the lock held). */
export function headOf(user: User): LedgerHead {
  return { userId: user.userId, tenantId: user.tenantId, balance: user.balance, seq: user.ledgerSeq };
}

/** What a ledger entry names of the hold it settles (the add it paid for). */
const namedInEntry = snakeCaseFields<PaymentHold>()(['holdId', 'udid', 'kid', 'reservationId', 'mode', 'tier']);

function holdRef(hold: PaymentHold): LedgerRef {
  return { ...namedInEntry.toSnake(hold), ...(hold.charge.kind === 'code' ? { code: hold.charge.code } : {}) };
}

const amountOf = (charge: Charge) => (charge.kind === 'balance' ? charge.amount : 0);

export type HoldOutcome = { taken: true } | { taken: false; reason: 'insufficient_balance'; balance: number } | { taken: false; reason: 'code_used' };

export async function takeHold(hold: PaymentHold, code: ActivationCode | undefined, head?: LedgerHead): Promise<HoldOutcome> {
  // A free add's hold takes nothing, so the ledger has nothing to say; the hold still carries its slot notes.
  if (hold.charge.kind === 'free') return (await transactWrite([holdPutPart(hold)])).ok ? { taken: true } : { taken: false, reason: 'insufficient_balance', balance: 0 };
  const own = [holdPutPart(hold), ...(hold.charge.kind === 'code' ? [codeUsePart(code!, hold.userId, hold.createdAt)] : [])];
  const outcome = await writeWithLedger({ userId: hold.userId, head, with: own, change: { amount: -amountOf(hold.charge), kind: 'charge', ref: holdRef(hold), at: hold.createdAt } });
  if (outcome.ok) return { taken: true };
  if (outcome.reason === 'not_covered') return { taken: false, reason: 'insufficient_balance', balance: outcome.head.balance };
  if (outcome.reason === 'condition_failed' && hold.charge.kind === 'code') return { taken: false, reason: 'code_used' };
  // The user is gone, or the hold id was taken (random, 16 characters): nothing was taken either way.
  return { taken: false, reason: 'insufficient_balance', balance: outcome.reason === 'condition_failed' ? outcome.head.balance : 0 };
}

/** The parts and the ledger change that give `charge` back; a free charge moves nothing but `own`. */
async function giveBack(input: { userId: string; charge: Charge; own: TransactionPart[]; kind: LedgerKind; ref: LedgerRef; at: number }): Promise<boolean> {
  const { charge } = input;
  if (charge.kind === 'free') return (await transactWrite(input.own)).ok;
  const own = charge.kind === 'code' ? [...input.own, codeReleasePart(charge.code)] : input.own;
  const ref = charge.kind === 'code' ? { ...input.ref, code: charge.code } : input.ref;
  const outcome = await writeWithLedger({ userId: input.userId, with: own, change: { amount: amountOf(charge), kind: input.kind, ref, at: input.at } });
  return outcome.ok;
}

export function releaseHold(hold: PaymentHold, at: number, reason: string): Promise<boolean> {
  return giveBack({ userId: hold.userId, charge: hold.charge, own: [holdReleasePart(hold.holdId, at)], kind: 'refund', ref: { ...holdRef(hold), reason }, at });
}

/** Gives `charge` back with `own` (all or nothing); false when a condition of `own` failed. */
export function refundCharge(input: { userId: string; charge: Charge; own: TransactionPart[]; ref: LedgerRef; at: number }): Promise<boolean> {
  return giveBack({ ...input, kind: 'review_refund' });
}
