/**
 * In-memory implementations of the stores the domain declares (`shared/domain/stores.ts`), for the rule tests:
 * what a rule decides from what it reads. They implement the domain's own interfaces, never DynamoDB's API;
 * the conditional writes and transactions underneath are proven on DynamoDB Local by the repositories' tests.
 */
import type { LedgerAppendOutcome, LedgerMove, LedgerMovesOutcome, LedgerStore } from '../../shared/domain/ledger/ledger-store';
import type { ProtectionStore } from '../../shared/domain/sources/protection-store';
import { wireStores } from '../../shared/domain/stores';
import type { PlanStore, SubscriptionStore } from '../../shared/domain/subscriptions/subscription-store';
import type { TransactionStore, TransactionStoreOutcome } from '../../shared/domain/transaction-store';
import type { TransactionPart } from '../../shared/db/transactions';
import type { SlotStore } from '../../shared/domain/add-device/slot-store';
import type { AccountMode, AccountStatus, DeviceClass } from '../../shared/records/account';
import type { PossibleRegistration, RegistrationRef, RegistrationSlots } from '../../shared/records/registration';
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

interface MemoryAccount {
  status: AccountStatus;
  mode: AccountMode;
  free: Record<DeviceClass, number>;
  issued: Record<DeviceClass, number>;
}

type MemoryRegistration = Omit<PossibleRegistration, 'slots' | 'notedAt'> & { slots: number; notedAt: number; queued: boolean };

/**
 * Apple slots as the slot rule keeps them: each account's free and issued slots per class, the registrations'
 * records (owner, kept slots) and the slot notes on adds' holds. Its conditions are the repository's: a
 * reservation needs a free slot on an active account of the mode; an owner is set once, over exactly the kept
 * slots it read; a note is settled once.
 */
export class MemorySlotStore implements SlotStore {
  private readonly accounts = new Map<string, MemoryAccount>();
  private readonly registrations = new Map<string, MemoryRegistration>();
  private readonly notes = new Map<string, { held: boolean; notes: Set<string> }>();
  /** Certificates pointing at an Apple registration (`<account>|<Apple device id>`), whoever owns it. */
  private readonly rows = new Set<string>();

  addAccount(accountId: string, options: { free?: number; mode?: AccountMode; status?: AccountStatus } = {}): void {
    const free = options.free ?? 100;
    this.accounts.set(accountId, { status: options.status ?? 'active', mode: options.mode ?? 'instant', free: { iphone: free, ipad: free, mac: free }, issued: { iphone: 0, ipad: 0, mac: 0 } });
  }

  account(accountId: string): MemoryAccount {
    const found = this.accounts.get(accountId)!;
    return { ...found, free: { ...found.free }, issued: { ...found.issued } };
  }

  /** An add's hold, held (its notes can be added) until `settleHold`. */
  addHold(holdId: string): void {
    this.notes.set(holdId, { held: true, notes: new Set() });
  }

  holdNotes(holdId: string): string[] {
    return [...(this.notes.get(holdId)?.notes ?? [])];
  }

  registration(ref: RegistrationRef): MemoryRegistration | undefined {
    const found = this.registrations.get(registrationKey(ref));
    return found && { ...found };
  }

  /**
   * The add's own write beside the slot's (its certificate, the completion of its hold): when `paid` is false
   * the condition fails, as the hold's does once it was settled elsewhere (refunded); applied, the certificate
   * points at Apple's device.
   */
  certificatePart(accountId: string, appleDeviceId: string, paid = true): TransactionPart {
    return memoryPart({ holds: () => paid, apply: () => void this.rows.add(`${accountId}|${appleDeviceId}`) });
  }

  /** A certificate written before owners were recorded: it points at the registration, nobody owns the record. */
  addLegacyRow(accountId: string, appleDeviceId: string): void {
    this.rows.add(`${accountId}|${appleDeviceId}`);
  }

  async reserve(accountId: string, deviceClass: DeviceClass, mode: AccountMode, also?: TransactionPart): Promise<boolean> {
    await turn();
    const account = this.accounts.get(accountId);
    const extra = also ? [asMemory(also)] : [];
    if (!account || account.status !== 'active' || account.mode !== mode || account.free[deviceClass] <= 0 || failing(extra).length > 0) return false;
    account.free[deviceClass]--;
    for (const part of extra) part.apply();
    return true;
  }

  async release(accountId: string, deviceClass: DeviceClass): Promise<void> {
    await turn();
    this.accounts.get(accountId)!.free[deviceClass]++;
  }

  async markClassFull(accountId: string, deviceClass: DeviceClass): Promise<void> {
    await turn();
    this.accounts.get(accountId)!.free[deviceClass] = 0;
  }

  releasePart(accountId: string, deviceClass: DeviceClass, count = 1): TransactionPart {
    return this.countPart(accountId, new Map([[deviceClass, count]]));
  }

  usePart(accountId: string, deviceClass: DeviceClass, release = 0, reserved: DeviceClass = deviceClass): TransactionPart {
    const changes = new Map<DeviceClass, number>([[deviceClass, release]]);
    if (reserved !== deviceClass) {
      changes.set(reserved, 1);
      changes.set(deviceClass, release - 1);
    }
    return this.countPart(accountId, changes, deviceClass);
  }

  countPart(accountId: string, changes: ReadonlyMap<DeviceClass, number>, issued?: DeviceClass): TransactionPart {
    return memoryPart({
      holds: () => true,
      apply: () => {
        const account = this.accounts.get(accountId)!;
        for (const [deviceClass, n] of changes) account.free[deviceClass] += n;
        if (issued !== undefined) account.issued[issued]++;
      },
    });
  }

  async readRegistration(ref: RegistrationRef): Promise<RegistrationSlots> {
    await turn();
    const found = this.registrations.get(registrationKey(ref));
    return { ownerKid: found?.ownerKid, kept: found?.slots ?? 0 };
  }

  ownPart(ref: RegistrationRef, kid: string, kept: number): TransactionPart {
    const key = registrationKey(ref);
    return memoryPart({
      holds: () => {
        const found = this.registrations.get(key);
        return found?.ownerKid === undefined && (found?.slots ?? 0) === kept;
      },
      apply: () => {
        const found = this.registrations.get(key);
        this.registrations.set(key, { ...(found ?? { ...ref, tenantId: '', userId: '', pool: 0, notedAt: 0 }), ownerKid: kid, slots: 0, queued: false });
      },
    });
  }

  notePossiblePart(possible: Omit<PossibleRegistration, 'slots' | 'ownerKid'>): TransactionPart {
    const key = registrationKey(possible);
    return memoryPart({
      holds: () => true,
      apply: () => {
        const found = this.registrations.get(key);
        this.registrations.set(key, { ...possible, ownerKid: found?.ownerKid, slots: (found?.slots ?? 0) + 1, queued: true });
      },
    });
  }

  async listDuePossible(before: number, limit: number): Promise<PossibleRegistration[]> {
    await turn();
    return [...this.registrations.values()]
      .filter((r) => r.queued && r.notedAt < before)
      .slice(0, limit)
      .map(({ queued: _queued, ...r }) => r);
  }

  settlePossiblePart(possible: PossibleRegistration, _now: number, ownerKid?: string): TransactionPart {
    const key = registrationKey(possible);
    return memoryPart({
      holds: () => {
        const found = this.registrations.get(key);
        return found !== undefined && found.slots === possible.slots && found.notedAt === possible.notedAt && found.ownerKid === possible.ownerKid;
      },
      apply: () => {
        const found = this.registrations.get(key)!;
        this.registrations.set(key, { ...found, slots: 0, queued: false, ownerKid: ownerKid ?? found.ownerKid });
      },
    });
  }

  async hasRegistrationRow(accountId: string, appleDeviceId: string): Promise<boolean> {
    await turn();
    return this.rows.has(`${accountId}|${appleDeviceId}`);
  }

  notePart(holdId: string, note: string): TransactionPart {
    return memoryPart({ holds: () => this.notes.get(holdId)?.held === true, apply: () => void this.notes.get(holdId)!.notes.add(note) });
  }

  async noteSettled(holdId: string, note: string): Promise<boolean> {
    await turn();
    return this.notes.get(holdId)?.notes.delete(note) ?? false;
  }

  noteSettledPart(holdId: string, note: string): TransactionPart {
    return memoryPart({ holds: () => this.notes.get(holdId)?.notes.has(note) === true, apply: () => void this.notes.get(holdId)!.notes.delete(note) });
  }
}

const registrationKey = (ref: RegistrationRef) => `${ref.accountId}#${ref.deviceClass}#${ref.udid.toUpperCase()}`;

export interface MemoryStores {
  ledger: MemoryLedgerStore;
  subscriptions: MemorySubscriptionStore;
  plans: MemoryPlanStore;
  protection: MemoryProtectionStore;
  transactions: MemoryTransactionStore;
  slots: MemorySlotStore;
}

/** Fresh in-memory stores, wired as the domain's. */
export function useMemoryStores(): MemoryStores {
  const stores: MemoryStores = {
    ledger: new MemoryLedgerStore(),
    subscriptions: new MemorySubscriptionStore(),
    plans: new MemoryPlanStore(),
    protection: new MemoryProtectionStore(),
    transactions: new MemoryTransactionStore(),
    slots: new MemorySlotStore(),
  };
  wireStores(stores);
  return stores;
}
