/**
 * The one way a balance changes or an activation code is claimed or given back: together with its ledger
 * entry, in the same DynamoDB transaction.
 *
 * - `ledgerChange(head, change)` — pure: the entries that move the user's balance from `head` by
 *   `change.amount` (an `opening` entry first when the user's balance predates the ledger), and the head after
 *   them.
 * - `writeWithLedger({ userId, change, with, head? })` — sends `with` (the caller's own parts: the hold, the
 *   code's claim, the reservation's end, a plan …) and the ledger's parts as one transaction. The user item's
 *   condition is its ledger sequence, so `balance_after` is exact: when another change got there first,
 *   nothing was written, and the transaction is rebuilt on the head that won (the failed condition hands it
 *   back). A debit that the balance no longer covers, a missing user, or a failed condition of the caller's
 *   own parts end it with nothing written.
 *
 * Storage is the wired ledger store (`ledger-store.ts`): DynamoDB in every function, in memory in the rule tests.
 */
import type { TransactionPart } from '../../db/transactions';
import { store } from '../stores';
import type { LedgerChange, LedgerEntry, LedgerHead } from '../../records/ledger-entry';

export function ledgerChange(head: LedgerHead, change: LedgerChange): { entries: LedgerEntry[]; entry: LedgerEntry; after: LedgerHead } {
  const entries: LedgerEntry[] = [];
  let seq = head.seq;
  // A balance from before the ledger existed becomes its first entry, so the entries always add up to it.
  if (seq === 0 && head.balance !== 0) {
    entries.push({ userId: head.userId, tenantId: head.tenantId, seq: ++seq, time: change.at, kind: 'opening', amount: head.balance, balanceAfter: head.balance, ref: { note: 'balance before the ledger' } });
  }
  const entry: LedgerEntry = { userId: head.userId, tenantId: head.tenantId, seq: ++seq, time: change.at, kind: change.kind, amount: change.amount, balanceAfter: head.balance + change.amount, ref: change.ref };
  entries.push(entry);
  return { entries, entry, after: { ...head, balance: entry.balanceAfter, seq } };
}

/** `ledgerChange` for several changes of one user in a row (an agent's parent: the sale, then its own cost). */
export function ledgerChanges(head: LedgerHead, changes: readonly LedgerChange[]): { entries: LedgerEntry[]; after: LedgerHead } {
  const entries: LedgerEntry[] = [];
  let after = head;
  for (const change of changes) {
    const built = ledgerChange(after, change);
    entries.push(...built.entries);
    after = built.after;
  }
  return { entries, after };
}

export type LedgerWriteOutcome =
  | { ok: true; entry: LedgerEntry; after: LedgerHead }
  /** The debit is more than the balance (`head` as last read). */
  | { ok: false; reason: 'not_covered'; head: LedgerHead }
  | { ok: false; reason: 'user_not_found' }
  /** With `active`: the user was suspended (an agent its parent suspended). */
  | { ok: false; reason: 'suspended' }
  /** A condition of the caller's own parts failed: `failed` are their indexes in `with`. */
  | { ok: false; reason: 'condition_failed'; failed: number[]; head: LedgerHead };

/** Other changes of the same user in flight: each retry follows one that succeeded, so this is generous. */
const MAX_ATTEMPTS = 50;

/**
 * Backoff with full jitter after a lost race: N changes of one user that keep retrying at once cost N² tries;
 * spread out, about N log N.
 */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1_000, 10 * 2 ** attempt)));

export async function writeWithLedger(input: {
  userId: string;
  /** The head as the caller already read it (the add reads the user anyway); read here otherwise. */
  head?: LedgerHead | undefined;
  /** The change, or how to make it from the head (e.g. an amount that depends on the balance). */
  change: LedgerChange | ((head: LedgerHead) => LedgerChange);
  with?: readonly TransactionPart[];
  /** A negative amount may take the balance below zero (the operator's corrections); default false. */
  allowNegative?: boolean;
  /** Written only while the user is not suspended (an agent's charge); default false. */
  active?: boolean;
}): Promise<LedgerWriteOutcome> {
  const own = input.with ?? [];
  const ledger = store('ledger');
  let head = input.head ?? (await ledger.readHead(input.userId));
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (!head) return { ok: false, reason: 'user_not_found' };
    const change = typeof input.change === 'function' ? input.change(head) : input.change;
    if (change.amount < 0 && head.balance + change.amount < 0 && !input.allowNegative) return { ok: false, reason: 'not_covered', head };
    const built = ledgerChange(head, change);
    const outcome = input.active ? await ledger.append(head, built.entries, own, { active: true }) : await ledger.append(head, built.entries, own);
    if (outcome.ok) return { ok: true, entry: built.entry, after: built.after };
    if (outcome.suspended) return { ok: false, reason: 'suspended' };
    if (outcome.ownFailed.length > 0) return { ok: false, reason: 'condition_failed', failed: outcome.ownFailed, head };
    // The head moved (another change of this user: the failed condition handed it back) or a concurrent
    // transaction conflicted (read it again).
    await pause(attempt);
    head = outcome.moved ?? (await ledger.readHead(input.userId));
  }
  throw new Error(`The ledger of ${input.userId} kept moving; try again`);
}

/** One user's part of a `writeLedgerMoves`: its changes, in order, from its head. */
export interface UserChanges {
  userId: string;
  head?: LedgerHead | undefined;
  changes: (head: LedgerHead) => readonly LedgerChange[];
}

export type LedgerMovesWriteOutcome =
  | { ok: true; after: ReadonlyMap<string, LedgerHead> }
  /** A user's balance does not cover its net debit (`userId`, `head` as last read). */
  | { ok: false; reason: 'not_covered'; userId: string; head: LedgerHead }
  | { ok: false; reason: 'user_not_found'; userId: string }
  | { ok: false; reason: 'condition_failed'; failed: number[] };

/**
 * `writeWithLedger` for several users in one transaction: every user's entries follow its own head, each on
 * the condition that its sequence is unchanged, and the caller's parts ride along. No user's balance goes
 * below zero: a user whose changes take more than its balance ends it with nothing written. A lost race on
 * any user's head rebuilds every user's entries on the heads that won.
 */
export async function writeLedgerMoves(input: { users: readonly UserChanges[]; with?: readonly TransactionPart[] }): Promise<LedgerMovesWriteOutcome> {
  const own = input.with ?? [];
  const ledger = store('ledger');
  const heads = new Map<string, LedgerHead | undefined>();
  await Promise.all(input.users.map(async (u) => heads.set(u.userId, u.head ?? (await ledger.readHead(u.userId)))));
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const moves = [];
    const after = new Map<string, LedgerHead>();
    for (const u of input.users) {
      const head = heads.get(u.userId);
      if (!head) return { ok: false, reason: 'user_not_found', userId: u.userId };
      const changes = u.changes(head);
      const net = changes.reduce((sum, c) => sum + c.amount, 0);
      const built = ledgerChanges(head, changes);
      // A user's credits come before its debits in `changes`, so its balance is lowest at the end.
      if (net < 0 && built.after.balance < 0) return { ok: false, reason: 'not_covered', userId: u.userId, head };
      moves.push({ head, entries: built.entries });
      after.set(u.userId, built.after);
    }
    const outcome = await ledger.appendMoves(moves, own);
    if (outcome.ok) return { ok: true, after };
    if (outcome.ownFailed.length > 0) return { ok: false, reason: 'condition_failed', failed: outcome.ownFailed };
    await pause(attempt);
    const moved = outcome.moved;
    await Promise.all(input.users.map(async (u) => heads.set(u.userId, moved.get(u.userId) ?? (moved.size > 0 ? heads.get(u.userId) : await ledger.readHead(u.userId)))));
  }
  throw new Error('The ledgers kept moving; try again');
}
