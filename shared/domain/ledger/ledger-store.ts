/**
 * What the ledger's rules ask of storage, declared here so that the rules own it: the DynamoDB repository
 * implements it for every function that reaches them (`shared/stores/ledger.ts` wires it once), and the rule
 * tests run on an in-memory one. The conditional write and the transaction themselves are the repository's,
 * proven on DynamoDB Local.
 */
import type { TransactionPart } from '../../db/transactions';
import type { LedgerEntry, LedgerHead } from '../../records/ledger-entry';

export type LedgerAppendOutcome =
  | { ok: true }
  /**
   * Nothing was written. `ownFailed`: the indexes in `own` whose condition failed (empty when the head moved or
   * a concurrent write conflicted); `moved`: the head that won, when the store could hand it back.
   */
  | { ok: false; ownFailed: number[]; moved: LedgerHead | undefined; suspended?: boolean };

/** One user's entries following its head. */
export interface LedgerMove {
  head: LedgerHead;
  entries: readonly LedgerEntry[];
}

export type LedgerMovesOutcome = { ok: true } | { ok: false; ownFailed: number[]; moved: ReadonlyMap<string, LedgerHead> };

export interface LedgerStore {
  /** The user's balance and ledger sequence, strongly consistent; undefined for an unknown user. */
  readHead(userId: string): Promise<LedgerHead | undefined>;
  /**
   * All or nothing: the caller's own transaction parts, the user moved from `head` to the last of `entries`
   * (only while the user's sequence is still `head.seq`, and with `active` only while it is not suspended:
   * `suspended` then says why nothing was written), and each entry.
   */
  append(head: LedgerHead, entries: readonly LedgerEntry[], own: readonly TransactionPart[], options?: { active?: boolean }): Promise<LedgerAppendOutcome>;
  /**
   * `append` for several users at once (an agent's add moves every level above the agent): all or nothing,
   * each user only while its sequence is still its head's. `moved` has the heads that won, by user.
   */
  appendMoves(moves: readonly LedgerMove[], own: readonly TransactionPart[]): Promise<LedgerMovesOutcome>;
  /** Every entry of the user, oldest first. */
  entries(userId: string): AsyncIterable<LedgerEntry>;
}
