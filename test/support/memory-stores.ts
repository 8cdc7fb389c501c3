/**
 * In-memory implementations of the stores the domain declares (`shared/domain/stores.ts`), for the rule tests:
 * what a rule decides from what it reads. They implement the domain's own interfaces, never DynamoDB's API;
 * the conditional writes and transactions underneath are proven on DynamoDB Local by the repositories' tests.
 */
import type { LedgerAppendOutcome, LedgerMove, LedgerMovesOutcome, LedgerStore } from '../../shared/domain/ledger/ledger-store';
import { wireStores } from '../../shared/domain/stores';
import type { TransactionPart } from '../../shared/db/transactions';
import type { LedgerEntry, LedgerHead } from '../../shared/records/ledger-entry';

/** One turn of the event loop: concurrent callers interleave here as their round trips would. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class MemoryLedgerStore implements LedgerStore {
  private readonly heads = new Map<string, LedgerHead>();
  private readonly log = new Map<string, LedgerEntry[]>();
  /** How often the rules read a head (a lost race should hand the winner back, not cost a read). */
  reads = 0;
  /** Appends tried, won or lost. */
  appends = 0;

  /** A user with a balance and no ledger yet (a balance from before the ledger when not 0). */
  addUser(userId: string, balance = 0, tenantId = 'default'): void {
    this.heads.set(userId, { userId, tenantId, balance, seq: 0 });
  }

  /** Changes the stored balance alone, as a write from outside the ledger would. */
  setBalance(userId: string, balance: number): void {
    this.heads.set(userId, { ...this.heads.get(userId)!, balance });
  }

  head(userId: string): LedgerHead | undefined {
    const head = this.heads.get(userId);
    return head && { ...head };
  }

  list(userId: string): LedgerEntry[] {
    return [...(this.log.get(userId) ?? [])];
  }

  async readHead(userId: string): Promise<LedgerHead | undefined> {
    this.reads++;
    await turn();
    return this.head(userId);
  }

  async append(head: LedgerHead, entries: readonly LedgerEntry[], own: readonly TransactionPart[]): Promise<LedgerAppendOutcome> {
    // Another store's transaction parts are DynamoDB items: rules that write with them are tested on DynamoDB Local.
    if (own.length > 0) throw new Error('the in-memory ledger store writes no parts of other stores');
    this.appends++;
    await turn();
    const current = this.heads.get(head.userId);
    if (!current || current.seq !== head.seq) return { ok: false, ownFailed: [], moved: current && { ...current } };
    const last = entries[entries.length - 1]!;
    this.heads.set(head.userId, { ...current, balance: last.balanceAfter, seq: last.seq });
    this.log.set(head.userId, [...(this.log.get(head.userId) ?? []), ...entries]);
    return { ok: true };
  }

  async appendMoves(moves: readonly LedgerMove[], own: readonly TransactionPart[]): Promise<LedgerMovesOutcome> {
    if (own.length > 0) throw new Error('the in-memory ledger store writes no parts of other stores');
    this.appends++;
    await turn();
    const moved = new Map<string, LedgerHead>();
    for (const { head } of moves) {
      const current = this.heads.get(head.userId);
      if (current && current.seq !== head.seq) moved.set(head.userId, { ...current });
      if (!current) return { ok: false, ownFailed: [], moved };
    }
    if (moved.size > 0) return { ok: false, ownFailed: [], moved };
    for (const { head, entries } of moves) {
      const last = entries[entries.length - 1];
      if (!last) continue;
      this.heads.set(head.userId, { ...this.heads.get(head.userId)!, balance: last.balanceAfter, seq: last.seq });
      this.log.set(head.userId, [...(this.log.get(head.userId) ?? []), ...entries]);
    }
    return { ok: true };
  }

  async *entries(userId: string): AsyncGenerator<LedgerEntry> {
    await turn();
    yield* this.list(userId);
  }
}

/** Fresh in-memory stores, wired as the domain's. */
export function useMemoryStores(): { ledger: MemoryLedgerStore } {
  const stores = { ledger: new MemoryLedgerStore() };
  wireStores(stores);
  return stores;
}
