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
import { addUncountPart } from '../../db/repositories/add-count-repository';
import type { ActivationCode } from '../../records/activation-code';
import type { Charge } from '../../records/reservation';
import type { User } from '../../records/user';
import type { LedgerHead, LedgerKind, LedgerRef } from '../../records/ledger-entry';
import { snakeCaseFields } from '../../snake-case-fields';
import { ledgerChanges, writeWithLedger } from './ledger';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { activeUserCheck, ledgerWriteParts } from '../../db/repositories/ledger-repository';
import type { UplineShare } from '../../records/reservation';
import { store } from '../stores';

/** The head of a user as the add read it (strongly consistent, with the lock held). */
export function headOf(user: User): LedgerHead {
  return { userId: user.userId, tenantId: user.tenantId, balance: user.balance, seq: user.ledgerSeq };
}

/** What a ledger entry names of the hold it settles (the add it paid for). */
const namedInEntry = snakeCaseFields<PaymentHold>()(['holdId', 'udid', 'kid', 'reservationId', 'mode', 'tier']);

function holdRef(hold: PaymentHold): LedgerRef {
  return { ...namedInEntry.toSnake(hold), ...(hold.charge.kind === 'code' ? { code: hold.charge.code } : {}), ...agentRef(hold.userId, hold.charge) };
}

/** An agent's own entries of its add name it and its level, as the entries above it do. */
function agentRef(userId: string, charge: Charge): LedgerRef {
  const upline = charge.kind === 'balance' ? charge.upline : undefined;
  return upline && upline.length > 0 ? { agent_id: userId, level: upline[0]!.level + 1 } : {};
}

const amountOf = (charge: Charge) => (charge.kind === 'balance' ? charge.amount : 0);

export type HoldOutcome =
  | { taken: true }
  | { taken: false; reason: 'insufficient_balance'; balance: number }
  | { taken: false; reason: 'code_used' }
  /** A month's count the price was decided on moved (another add got there first): price it again. */
  | { taken: false; reason: 'count_moved' }
  /** The adding agent, or a reseller above it, was suspended: nothing taken anywhere. */
  | { taken: false; reason: 'suspended' };

/**
 * What else the hold's transaction holds to: the month's add counts it moves (each conditioned on the count its
 * price was decided on, where the price depends on it), and for an agent's add that neither the agent (`agent`:
 * its user item is the ledger's own write, or a condition check in a free add) nor any reseller above it
 * (`upline`: condition checks) is suspended at that instant.
 */
export interface HoldGuard {
  counts: TransactionPart[];
  agent: boolean;
  upline: TransactionPart[];
}

export async function takeHold(hold: PaymentHold, code: ActivationCode | undefined, head?: LedgerHead, guard?: HoldGuard): Promise<HoldOutcome> {
  const counts = guard?.counts ?? [];
  const upline = guard?.upline ?? [];
  // A free add's hold takes nothing, so the ledger has nothing to say; the hold still carries its slot notes.
  if (hold.charge.kind === 'free') {
    const checks = [...(guard?.agent ? [activeUserCheck(hold.userId)] : []), ...upline];
    const written = await transactWrite([holdPutPart(hold), ...checks]);
    if (written.ok) return { taken: true };
    return written.failed.some((i) => i > 0) ? { taken: false, reason: 'suspended' } : { taken: false, reason: 'insufficient_balance', balance: 0 };
  }
  const own = [holdPutPart(hold), ...(hold.charge.kind === 'code' ? [codeUsePart(code!, hold.userId, hold.createdAt)] : []), ...counts, ...upline];
  const countsAt = own.length - upline.length - counts.length;
  const outcome = await writeWithLedger({ userId: hold.userId, head, with: own, active: guard?.agent === true, change: { amount: -amountOf(hold.charge), kind: 'charge', ref: holdRef(hold), at: hold.createdAt } });
  if (outcome.ok) return { taken: true };
  if (outcome.reason === 'suspended') return { taken: false, reason: 'suspended' };
  if (outcome.reason === 'not_covered') return { taken: false, reason: 'insufficient_balance', balance: outcome.head.balance };
  if (outcome.reason === 'condition_failed') {
    if (outcome.failed.some((i) => i >= countsAt + counts.length)) return { taken: false, reason: 'suspended' };
    if (outcome.failed.some((i) => i >= countsAt)) return { taken: false, reason: 'count_moved' };
    if (hold.charge.kind === 'code') return { taken: false, reason: 'code_used' };
  }
  // The user is gone, or the hold id was taken (random, 16 characters): nothing was taken either way.
  return { taken: false, reason: 'insufficient_balance', balance: outcome.reason === 'condition_failed' ? outcome.head.balance : 0 };
}

/** A refunded add leaves the month's counts it moved. */
function uncountParts(charge: Charge): TransactionPart[] {
  return charge.kind === 'balance' && charge.counted ? charge.counted.users.map((userId) => addUncountPart(userId, charge.counted!.month)) : [];
}

/** The parts and the ledger change that give `charge` back; a free charge moves nothing but `own`. */
async function giveBack(input: { userId: string; charge: Charge; own: TransactionPart[]; kind: LedgerKind; ref: LedgerRef; at: number }): Promise<boolean> {
  const { charge } = input;
  if (charge.kind === 'free') return (await transactWrite(input.own)).ok;
  const own = charge.kind === 'code' ? [...input.own, codeReleasePart(charge.code)] : [...input.own, ...uncountParts(charge)];
  const ref = charge.kind === 'code' ? { ...input.ref, code: charge.code } : { ...input.ref, ...agentRef(input.userId, charge) };
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

// An agent's add: the levels above the agent.
//
// The agent's own price is taken with its hold, like any user's. Each reseller above it is credited the price of
// the level below and pays its own upward only when the add delivers, in the transaction that writes the
// certificate (instant) or issues it (review): so a refund or a failed review, which happen before that, give
// back the agent's hold and nothing else moved, and no level above ever has a margin taken back that it may have
// spent. Each level's price is at least its parent's (agent-prices.ts), so no level above pays more than it is
// credited and none needs a balance to cover an add below it.

/** What the entries of an agent's delivered add name: the add (kid, udid …), the adding agent. */
export type UplineRef = Pick<LedgerRef, 'hold_id' | 'kid' | 'reservation_id' | 'udid' | 'mode' | 'tier'> & { agent_id: string };

/** The levels above an agent to settle with its delivered add, or undefined when nothing is owed upward. */
export function uplineOf(charge: Charge): UplineShare[] | undefined {
  return charge.kind === 'balance' && charge.upline && charge.upline.length > 0 ? charge.upline : undefined;
}

/** Tries after lost races on a head above the agent: every retry follows a write that succeeded. */
const UPLINE_RACES = 50;
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1_000, 10 * 2 ** attempt)));

function isConflict(error: unknown): boolean {
  return error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict');
}

/**
 * Sends `own` with every level's `agent_sale` (+ the price below) and `agent_cost` (− its own) entries, each
 * level conditioned on its ledger sequence; a lost race on a level's head (or a conflicting transaction) builds
 * the entries again on the heads read anew. `send` writes the parts (the add's slot write wraps them); `failed`
 * comes back relative to `own`. Without an upline, `own` is sent once as it is.
 */
export async function writeWithUpline(
  upline: readonly UplineShare[] | undefined,
  ref: UplineRef,
  at: number,
  own: readonly TransactionPart[],
  send: (parts: TransactionPart[]) => Promise<{ ok: boolean; failed?: number[] }>,
  /** The levels' heads as the caller read them (the add's quote): the first try needs no read of its own. */
  known?: readonly LedgerHead[],
): Promise<{ ok: true } | { ok: false; failed: number[] }> {
  if (!upline) {
    const outcome = await send([...own]);
    return outcome.ok ? { ok: true } : { ok: false, failed: outcome.failed ?? [] };
  }
  const ledger = store('ledger');
  for (let race = 0; race < UPLINE_RACES; race++) {
    const parts: TransactionPart[] = [...own];
    const given = race === 0 && known ? new Map(known.map((h) => [h.userId, h] as const)) : undefined;
    const heads = given && upline.every((share) => given.has(share.userId)) ? upline.map((share) => given.get(share.userId)) : await Promise.all(upline.map((share) => ledger.readHead(share.userId)));
    for (const [i, share] of upline.entries()) {
      const head = heads[i];
      // A reseller deleted since: its share has nowhere to go, so the add cannot be recorded (refunded).
      if (!head) return { ok: false, failed: [] };
      const entryRef = { ...ref, level: share.level };
      const { entries } = ledgerChanges(head, [
        { amount: share.credit, kind: 'agent_sale', ref: entryRef, at },
        { amount: -share.cost, kind: 'agent_cost', ref: entryRef, at },
      ]);
      parts.push(...ledgerWriteParts(head, entries));
    }
    try {
      const outcome = await send(parts);
      if (outcome.ok) return { ok: true };
      const failed = outcome.failed ?? [];
      if (failed.length === 0 || failed.some((i) => i < own.length)) return { ok: false, failed: failed.filter((i) => i < own.length) };
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
    await pause(race);
  }
  throw new Error('The ledgers above the agent kept moving; try again');
}
