/**
 * One all-or-nothing write of parts that several stores hand out (a subscription and its record; a code's
 * claim and a hold …), for rules that write without the ledger (with it, the ledger store's `append` sends
 * them). The DynamoDB one is `TransactWriteItems`; the in-memory one checks every part's condition, then
 * applies them all.
 */
import type { TransactionPart } from '../db/transactions';

export type TransactionStoreOutcome = { ok: true } | { ok: false; failed: number[] };

export interface TransactionStore {
  /**
   * Writes every part or none. `failed`: the indexes of the parts whose condition failed (empty when a
   * concurrent write conflicted, with `conflicts: 'report'`; otherwise such a conflict is thrown).
   */
  write(parts: readonly TransactionPart[], options?: { conflicts?: 'throw' | 'report' }): Promise<TransactionStoreOutcome>;
}
