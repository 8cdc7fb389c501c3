/**
 * Reconciliation: proves, for each user, that the ledger accounts for the balance and that every charge
 * ended in a delivery or a refund. What it reports as a difference:
 *
 * - `sequence_gap` — the entries are not numbered 1, 2, … or the user's sequence is not the last entry's;
 * - `running_balance` — an entry's `balance_after` is not the one before plus its amount;
 * - `sum_differs` — the sum of the entries is not the balance (also a balance with no entries at all);
 * - `refunded_twice`, `refund_differs` — a hold refunded more than once, or by another amount than it took;
 * - `not_delivered` — a completed (or long settled) hold whose certificate does not exist, or failed without a
 *   refund entry;
 * - `tally_differs` — a UTC day's or month's tally (what `/api/user/stats` reads, ledger-tally.ts) does not
 *   count exactly the entries of that period: `period`, `kind`, `field` (`count` or `amount`), `expected` (from
 *   the entries) and `found` (stored).
 *
 * A hold still `held` is an add in flight (or one the reservation worker will refund): listed, not a difference.
 */
import { findDeviceStates } from '../../db/repositories/device-repository';
import { ledgerEntries, readTallies, scanLedgerHeads } from '../../db/repositories/ledger-repository';
import { tallyDifferences, tallyOf } from '../../records/ledger-tally';
import { getHold } from '../../db/repositories/payment-hold-repository';
import type { LedgerEntry, LedgerHead, LedgerKind } from '../../records/ledger-entry';

export interface LedgerDifference {
  user_id: string;
  tenant_id: string;
  problem: 'sequence_gap' | 'running_balance' | 'sum_differs' | 'refunded_twice' | 'refund_differs' | 'not_delivered' | 'agent_chain' | 'tally_differs';
  /** `tally_differs`: the period (`day#2026-11-27`, `month#2026-11`), the entry kind and which figure differs. */
  period?: string;
  kind?: LedgerKind;
  field?: 'count' | 'amount';
  /** `agent_chain`: the level of the chain that does not add up, and the agent whose add it is. */
  level?: number;
  agent_id?: string;
  seq?: number;
  hold_id?: string;
  kid?: string;
  expected?: number;
  found?: number;
}

export interface UserReconciliation {
  user_id: string;
  tenant_id: string;
  balance: number;
  ledger_sum: number;
  entries: number;
  holds_in_flight: string[];
  differences: LedgerDifference[];
}

/** A certificate that was delivered (or is being reviewed) — what a completed hold must have paid for. */
const DELIVERED = new Set(['normal', 'processing', 'revoked', 'expired']);

export async function reconcileUser(head: LedgerHead, seen?: (entry: LedgerEntry) => void): Promise<UserReconciliation> {
  const entries: LedgerEntry[] = [];
  for await (const entry of ledgerEntries(head.userId)) entries.push(entry);
  if (seen) entries.forEach(seen);
  const differences: LedgerDifference[] = [];
  const who = { user_id: head.userId, tenant_id: head.tenantId };
  let running = 0;
  entries.forEach((entry, i) => {
    if (entry.seq !== i + 1) differences.push({ ...who, problem: 'sequence_gap', seq: entry.seq, expected: i + 1 });
    running += entry.amount;
    if (entry.balanceAfter !== running) differences.push({ ...who, problem: 'running_balance', seq: entry.seq, expected: running, found: entry.balanceAfter });
  });
  if (entries.length > 0 && head.seq !== entries[entries.length - 1]!.seq) differences.push({ ...who, problem: 'sequence_gap', expected: entries[entries.length - 1]!.seq, found: head.seq });
  if (running !== head.balance) differences.push({ ...who, problem: 'sum_differs', expected: head.balance, found: running });

  // Each day's and month's tally counts exactly its entries (a user reads them as their figures).
  const expectedTallies = tallyOf(entries);
  const stored = await readTallies(head.userId, [...expectedTallies.values()].map((row) => row.period));
  for (const [key, row] of expectedTallies) {
    for (const d of tallyDifferences(row.tally, stored.get(key) ?? {})) {
      differences.push({ ...who, problem: 'tally_differs', period: `${row.period.kind}#${row.period.id}`, kind: d.kind, field: d.field, expected: d.expected, found: d.found });
    }
  }

  // Holds: the charge each took, the refunds that gave it back, and what a kept charge must have delivered.
  const charges = new Map<string, LedgerEntry>();
  const refunds = new Map<string, LedgerEntry[]>();
  const reviewRefundedKids = new Set<string>();
  for (const entry of entries) {
    const holdId = entry.ref.hold_id;
    if (entry.kind === 'charge' && holdId) charges.set(holdId, entry);
    if (entry.kind === 'refund' && holdId) refunds.set(holdId, [...(refunds.get(holdId) ?? []), entry]);
    if (entry.kind === 'review_refund' && entry.ref.kid) reviewRefundedKids.add(entry.ref.kid);
  }
  const kept: LedgerEntry[] = [];
  const inFlight: string[] = [];
  for (const [holdId, charge] of charges) {
    const given = refunds.get(holdId) ?? [];
    if (given.length > 1) differences.push({ ...who, problem: 'refunded_twice', hold_id: holdId, found: given.length });
    const back = given.reduce((sum, refund) => sum + refund.amount, 0);
    if (given.length > 0 && back !== -charge.amount) differences.push({ ...who, problem: 'refund_differs', hold_id: holdId, expected: -charge.amount, found: back });
    if (given.length > 0) continue;
    const hold = await getHold(holdId);
    if (hold?.state === 'held') inFlight.push(holdId);
    else kept.push(charge);
  }
  const kids = kept.flatMap((charge) => (charge.ref.kid ? [charge.ref.kid] : []));
  const devices = kids.length > 0 ? await findDeviceStates(kids) : new Map();
  for (const charge of kept) {
    const kid = charge.ref.kid;
    const device = kid ? devices.get(kid) : undefined;
    const delivered = device !== undefined && device.user_id === head.userId && (DELIVERED.has(device.zt) || reviewRefundedKids.has(kid!));
    if (!delivered) differences.push({ ...who, problem: 'not_delivered', hold_id: charge.ref.hold_id!, ...(kid ? { kid } : {}) });
  }
  return { ...who, balance: head.balance, ledger_sum: running, entries: entries.length, holds_in_flight: inFlight, differences };
}

export interface LedgerCheck {
  users: number;
  entries: number;
  holds_in_flight: number;
  differences: LedgerDifference[];
}

/** Every user (of one tenant when given), reconciled. */
export async function checkLedger(tenantId?: string): Promise<LedgerCheck> {
  const report: LedgerCheck = { users: 0, entries: 0, holds_in_flight: 0, differences: [] };
  const chains = new Map<string, LedgerEntry[]>();
  const collect = (entry: LedgerEntry) => {
    if (entry.ref.agent_id === undefined || entry.ref.kid === undefined || entry.kind === 'agent_topup') return;
    chains.set(entry.ref.kid, [...(chains.get(entry.ref.kid) ?? []), entry]);
  };
  for await (const head of scanLedgerHeads(tenantId)) {
    const user = await reconcileUser(head, collect);
    report.users++;
    report.entries += user.entries;
    report.holds_in_flight += user.holds_in_flight.length;
    report.differences.push(...user.differences);
  }
  report.differences.push(...(await checkAgentChains(chains)));
  return report;
}

/**
 * Every agent's add, across the levels (entries gathered by certificate): the agent's `charge` at level n; once
 * the add delivered, exactly one `agent_sale` and one `agent_cost` at every level from n − 1 to 0, each level
 * credited exactly what the level below paid; while it is not delivered (in flight, a review pending) or after
 * its charge was given back, no entry above the agent at all.
 */
async function checkAgentChains(chains: ReadonlyMap<string, LedgerEntry[]>): Promise<LedgerDifference[]> {
  const differences: LedgerDifference[] = [];
  const devices = chains.size > 0 ? await findDeviceStates([...chains.keys()]) : new Map();
  for (const [kid, entries] of chains) {
    const charge = entries.find((e) => e.kind === 'charge');
    const upline = entries.filter((e) => e.kind === 'agent_sale' || e.kind === 'agent_cost');
    const agentId = (charge ?? entries[0]!).ref.agent_id!;
    const at = (entry: LedgerEntry | undefined, extra: Partial<LedgerDifference>): LedgerDifference => ({ user_id: entry?.userId ?? agentId, tenant_id: entry?.tenantId ?? (charge ?? entries[0]!).tenantId, problem: 'agent_chain', kid, agent_id: agentId, ...extra });
    if (!charge) {
      if (upline.length > 0) differences.push(at(upline[0], { level: upline[0]!.ref.level, seq: upline[0]!.seq }));
      continue;
    }
    const givenBack = entries.some((e) => (e.kind === 'refund' || e.kind === 'review_refund') && e.userId === charge.userId);
    const hold = charge.ref.hold_id ? await getHold(charge.ref.hold_id) : undefined;
    const device = devices.get(kid);
    const delivered = !givenBack && hold?.state !== 'held' && device !== undefined && device.zt !== 'processing' && DELIVERED.has(device.zt);
    if (!delivered) {
      for (const entry of upline) differences.push(at(entry, { level: entry.ref.level, seq: entry.seq, expected: 0, found: entry.amount }));
      continue;
    }
    // Level by level from the agent up: what the level below paid is what this level was credited.
    let paid = -charge.amount;
    for (let level = (charge.ref.level ?? 1) - 1; level >= 0; level--) {
      const sales = upline.filter((e) => e.kind === 'agent_sale' && e.ref.level === level);
      const costs = upline.filter((e) => e.kind === 'agent_cost' && e.ref.level === level);
      if (sales.length !== 1 || costs.length !== 1 || sales[0]!.amount !== paid) {
        differences.push(at(sales[0] ?? costs[0], { level, expected: paid, found: sales.reduce((sum, e) => sum + e.amount, 0) }));
        break;
      }
      paid = -costs[0]!.amount;
    }
    const levels = new Set(upline.map((e) => e.ref.level));
    for (const level of levels) if (level === undefined || level >= (charge.ref.level ?? 1)) differences.push(at(upline.find((e) => e.ref.level === level), { ...(level !== undefined ? { level } : {}) }));
  }
  return differences;
}
