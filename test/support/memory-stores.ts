/**
 * In-memory implementations of the stores the domain declares (`shared/domain/stores.ts`), for the rule tests:
 * what a rule decides from what it reads. They implement the domain's own interfaces, never DynamoDB's API;
 * the conditional writes and transactions underneath are proven on DynamoDB Local by the repositories' tests.
 */
import type { LedgerAppendOutcome, LedgerStore } from '../../shared/domain/ledger/ledger-store';
import type { ProtectionStore } from '../../shared/domain/sources/protection-store';
import { wireStores } from '../../shared/domain/stores';
import type { PlanStore, SubscriptionStore } from '../../shared/domain/subscriptions/subscription-store';
import type { TransactionStore, TransactionStoreOutcome } from '../../shared/domain/transaction-store';
import type { TransactionPart } from '../../shared/db/transactions';
import type { LedgerEntry, LedgerHead } from '../../shared/records/ledger-entry';
import type { Plan } from '../../shared/records/plan';
import { monitorPosition, type BlockEntry, type BlockReason, type CodeUse, type DeviceStanding, type EntryPage, type MonitorEntry, type MonitorRole, type UnlockCode } from '../../shared/records/protection';
import type { Subscription, SubscriptionRecord } from '../../shared/records/subscription';
import { DAY_SECONDS } from '../../shared/clock';

/** One turn of the event loop: concurrent callers interleave here as their round trips would. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A transaction part of an in-memory store: its condition, checked against the state when the transaction is
 * written, and its change, applied only when every part's condition holds (all within one turn, so nothing
 * interleaves between the check and the change).
 */
interface MemoryPart {
  holds(): boolean;
  apply(): void;
}

const memoryPart = (part: MemoryPart): TransactionPart => part as unknown as TransactionPart;
const asMemory = (part: TransactionPart): MemoryPart => {
  const memory = part as unknown as Partial<MemoryPart>;
  if (typeof memory.holds !== 'function') throw new Error('not a part of an in-memory store');
  return memory as MemoryPart;
};

/** The indexes of the parts whose condition fails now. */
const failing = (parts: readonly MemoryPart[]) => parts.flatMap((part, index) => (part.holds() ? [] : [index]));

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
    const parts = own.map(asMemory);
    this.appends++;
    await turn();
    const ownFailed = failing(parts);
    const current = this.heads.get(head.userId);
    if (ownFailed.length > 0) return { ok: false, ownFailed, moved: undefined };
    if (!current || current.seq !== head.seq) return { ok: false, ownFailed: [], moved: current && { ...current } };
    for (const part of parts) part.apply();
    const last = entries[entries.length - 1]!;
    this.heads.set(head.userId, { ...current, balance: last.balanceAfter, seq: last.seq });
    this.log.set(head.userId, [...(this.log.get(head.userId) ?? []), ...entries]);
    return { ok: true };
  }

  async *entries(userId: string): AsyncGenerator<LedgerEntry> {
    await turn();
    yield* this.list(userId);
  }
}

/** All or nothing over the in-memory stores' parts, as `TransactWriteItems` is over items. */
export class MemoryTransactionStore implements TransactionStore {
  writes = 0;

  async write(parts: readonly TransactionPart[]): Promise<TransactionStoreOutcome> {
    const memory = parts.map(asMemory);
    this.writes++;
    await turn();
    const failed = failing(memory);
    if (failed.length > 0) return { ok: false, failed };
    for (const part of memory) part.apply();
    return { ok: true };
  }
}

export class MemorySubscriptionStore implements SubscriptionStore {
  private readonly current_ = new Map<string, Subscription>();
  private readonly records_ = new Map<string, Array<SubscriptionRecord & { tenantId: string }>>();
  /** How often the rules read a subscription. */
  reads = 0;

  /** Stores a subscription as it stands (a test's starting point). */
  put(subscription: Subscription): void {
    this.current_.set(subscription.userId, { ...subscription });
  }

  get(userId: string): Subscription | undefined {
    const found = this.current_.get(userId);
    return found && { ...found };
  }

  records(userId: string): Array<SubscriptionRecord & { tenantId: string }> {
    return [...(this.records_.get(userId) ?? [])];
  }

  async current(userId: string): Promise<Subscription | undefined> {
    this.reads++;
    await turn();
    return this.get(userId);
  }

  changePart(next: Omit<Subscription, 'sourceCount' | 'version'>, seenVersion: number | undefined): TransactionPart {
    return memoryPart({
      holds: () => {
        const stored = this.current_.get(next.userId);
        return seenVersion === undefined ? stored === undefined : stored?.version === seenVersion;
      },
      apply: () => {
        const stored = this.current_.get(next.userId);
        this.current_.set(next.userId, {
          ...next,
          // As the repository: a trial once used stays recorded; the source count is never written here.
          trialUsedAt: next.trialUsedAt ?? stored?.trialUsedAt,
          sourceCount: stored?.sourceCount ?? 0,
          version: (seenVersion ?? 0) + 1,
        });
      },
    });
  }

  recordPart(userId: string, tenantId: string, record: SubscriptionRecord): TransactionPart {
    return memoryPart({ holds: () => true, apply: () => this.records_.set(userId, [...this.records(userId), { ...record, tenantId }]) });
  }
}

export class MemoryPlanStore implements PlanStore {
  private readonly plans = new Map<string, Plan[]>();

  add(plan: Omit<Plan, 'retired' | 'createdAt'> & Partial<Pick<Plan, 'retired' | 'createdAt'>>): Plan {
    const stored: Plan = { retired: false, createdAt: 0, ...plan };
    this.plans.set(plan.tenantId, [...(this.plans.get(plan.tenantId) ?? []), stored]);
    return stored;
  }

  /** As `plan retire` leaves it: sold no more. */
  retire(tenantId: string, planId: string): void {
    this.plans.set(tenantId, (this.plans.get(tenantId) ?? []).map((plan) => (plan.planId === planId ? { ...plan, retired: true } : plan)));
  }

  async list(tenantId: string): Promise<Plan[]> {
    await turn();
    return (this.plans.get(tenantId) ?? []).map((plan) => ({ ...plan }));
  }
}

/** One source's protection entries, keyed as the repository keys them so that pages come in the same order. */
interface SourceProtection {
  codes: Map<string, UnlockCode>;
  unlocks: Map<string, number>;
  blocked: Map<string, BlockEntry>;
  monitor: Map<string, MonitorEntry>;
}

export class MemoryProtectionStore implements ProtectionStore {
  private readonly sources = new Map<string, SourceProtection>();

  of(sourceId: string): SourceProtection {
    let found = this.sources.get(sourceId);
    if (!found) this.sources.set(sourceId, (found = { codes: new Map(), unlocks: new Map(), blocked: new Map(), monitor: new Map() }));
    return found;
  }

  async putUnlockCodes(sourceId: string, codes: readonly { code: string; days: number }[], now: number): Promise<boolean> {
    await turn();
    const { codes: stored } = this.of(sourceId);
    if (codes.some(({ code }) => stored.has(code))) return false;
    for (const { code, days } of codes) stored.set(code, { code, days, created_at: now });
    return true;
  }

  async listUnlockCodes(sourceId: string): Promise<UnlockCode[]> {
    await turn();
    return [...this.of(sourceId).codes.values()].map((code) => ({ ...code }));
  }

  async useUnlockCode(sourceId: string, code: string, udid: string, now: number): Promise<CodeUse> {
    await turn();
    const found = this.of(sourceId).codes.get(code);
    if (!found) return { refused: 'unknown' };
    if (found.used_at !== undefined) return { refused: 'taken', by: { ...found } };
    Object.assign(found, { udid, used_at: now, ends_at: now + found.days * DAY_SECONDS });
    return { used: { ...found } };
  }

  async grantUnlock(sourceId: string, udid: string, endsAt: number): Promise<void> {
    await turn();
    const { unlocks } = this.of(sourceId);
    if ((unlocks.get(udid) ?? 0) < endsAt) unlocks.set(udid, endsAt);
  }

  async deviceStanding(sourceId: string, udid: string): Promise<DeviceStanding> {
    await turn();
    const { blocked, unlocks } = this.of(sourceId);
    return { blocked: blocked.has(udid), unlockedUntil: unlocks.get(udid) ?? 0 };
  }

  async blockUdid(sourceId: string, udid: string, reason: BlockReason, now: number): Promise<{ entry: BlockEntry; added: boolean }> {
    await turn();
    const { blocked, monitor } = this.of(sourceId);
    const existing = blocked.get(udid);
    if (existing) return { entry: { ...existing }, added: false };
    const entry: BlockEntry = { udid, reason, added_at: now };
    blocked.set(udid, entry);
    for (const role of ['adder', 'cracker'] as const) monitor.delete(monitorPosition({ udid, role }));
    return { entry: { ...entry }, added: true };
  }

  async unblockUdid(sourceId: string, udid: string): Promise<boolean> {
    await turn();
    return this.of(sourceId).blocked.delete(udid);
  }

  async recordMonitored(sourceId: string, udid: string, role: MonitorRole, now: number): Promise<boolean> {
    await turn();
    const { blocked, monitor } = this.of(sourceId);
    if (blocked.has(udid)) return false;
    const key = monitorPosition({ udid, role });
    const entry = monitor.get(key);
    monitor.set(key, entry ? { ...entry, count: entry.count + 1, last_seen: now } : { udid, role, count: 1, first_seen: now, last_seen: now });
    return true;
  }

  async pageBlocked(sourceId: string, limit: number, after?: string): Promise<EntryPage<BlockEntry>> {
    await turn();
    return page(this.of(sourceId).blocked, limit, after);
  }

  async pageMonitored(sourceId: string, limit: number, after?: string): Promise<EntryPage<MonitorEntry>> {
    await turn();
    return page(this.of(sourceId).monitor, limit, after);
  }
}

/** Entries after the key `after`, in key order (as a Query's sort key gives them), and whether more follow. */
function page<T>(entries: ReadonlyMap<string, T>, limit: number, after: string | undefined): EntryPage<T> {
  const keys = [...entries.keys()].sort().filter((key) => after === undefined || key > after);
  return { items: keys.slice(0, limit).map((key) => ({ ...entries.get(key)! })), more: keys.length > limit };
}

export interface MemoryStores {
  ledger: MemoryLedgerStore;
  subscriptions: MemorySubscriptionStore;
  plans: MemoryPlanStore;
  protection: MemoryProtectionStore;
  transactions: MemoryTransactionStore;
}

/** Fresh in-memory stores, wired as the domain's. */
export function useMemoryStores(): MemoryStores {
  const stores: MemoryStores = {
    ledger: new MemoryLedgerStore(),
    subscriptions: new MemorySubscriptionStore(),
    plans: new MemoryPlanStore(),
    protection: new MemoryProtectionStore(),
    transactions: new MemoryTransactionStore(),
  };
  wireStores(stores);
  return stores;
}
