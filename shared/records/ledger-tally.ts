/**
 * The ledger's tallies: per user, per UTC day and per UTC month, how many entries of each kind were written and
 * their summed amounts. They ride in the transaction that writes the entries (ledger-repository.ts), so a tally
 * can never disagree with the ledger, and a dashboard reads a day or a month as one item whatever the volume.
 *
 * - `tallyPeriods(time)` — the UTC day (`2026-11-27`) and month (`2026-11`) an entry's time falls in.
 * - `tallyKey(userId, period)` — where a user's tally of one period is kept.
 * - `tallyOf(entries)` — the increments the entries make, by period: what the transaction adds, and what
 *   `ledger check` recomputes from the entries.
 * - `moneyFigures(tally)` — what a reseller reads of one period: net adds, refunds, spend, and its downline's
 *   sales with the margin.
 */
import { LEDGER_KINDS, type LedgerEntry, type LedgerKind } from './ledger-entry';

export type TallyPeriodKind = 'day' | 'month';

/** One period of a user's tally: `day#2026-11-27` or `month#2026-11` (UTC). */
export interface TallyPeriod {
  kind: TallyPeriodKind;
  /** `2026-11-27` or `2026-11`. */
  id: string;
}

/** Per kind: the number of entries and the sum of their amounts (signed cents). */
export type Tally = Partial<Record<LedgerKind, { count: number; amount: number }>>;

export function tallyPeriods(time: number): [TallyPeriod, TallyPeriod] {
  const day = new Date(time * 1000).toISOString().slice(0, 10);
  return [
    { kind: 'day', id: day },
    { kind: 'month', id: day.slice(0, 7) },
  ];
}

/** Seconds at which the UTC day or month holding `time` starts and the next one starts. */
export function periodBounds(kind: TallyPeriodKind, time: number): { start: number; end: number } {
  const at = new Date(time * 1000);
  const [y, m, d] = [at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()];
  const start = kind === 'day' ? Date.UTC(y, m, d) : Date.UTC(y, m, 1);
  const end = kind === 'day' ? Date.UTC(y, m, d + 1) : Date.UTC(y, m + 1, 1);
  return { start: start / 1000, end: end / 1000 };
}

/** Where a period starts, in Unix seconds (00:00 UTC of the day, or of the month's 1st). */
export function periodStart(period: TallyPeriod): number {
  return Date.parse(`${period.kind === 'month' ? `${period.id}-01` : period.id}T00:00:00Z`) / 1000;
}

/**
 * The periods of one kind from `from` to `to`, both included, oldest first (none when `from` is after `to`), at
 * most `limit` of them.
 */
export function periodsBetween(kind: TallyPeriodKind, from: string, to: string, limit = Infinity): TallyPeriod[] {
  const out: TallyPeriod[] = [];
  const last = periodStart({ kind, id: to });
  for (let at = periodStart({ kind, id: from }); at <= last && out.length < limit; at = periodBounds(kind, at).end) {
    out.push(tallyPeriods(at)[kind === 'day' ? 0 : 1]);
  }
  return out;
}

/**
 * The ledger table's partition of a user's tally of one period (sort key `seq` 0). A user's entries live under
 * the user id alone, so reading or checking them never meets a tally.
 */
export const tallyKey = (userId: string, period: TallyPeriod) => `${userId}#${period.kind}#${period.id}`;

/** The tally attributes of a kind: `n_<kind>` (entries) and `a_<kind>` (cents). */
export const countAttribute = (kind: LedgerKind) => `n_${kind}`;
export const amountAttribute = (kind: LedgerKind) => `a_${kind}`;

/** The increments `entries` make, by `tallyKey`, for each period any of them falls in. */
export function tallyOf(entries: readonly LedgerEntry[]): Map<string, { userId: string; tenantId: string; period: TallyPeriod; tally: Tally }> {
  const out = new Map<string, { userId: string; tenantId: string; period: TallyPeriod; tally: Tally }>();
  for (const entry of entries) {
    for (const period of tallyPeriods(entry.time)) {
      const key = tallyKey(entry.userId, period);
      const row = out.get(key) ?? { userId: entry.userId, tenantId: entry.tenantId, period, tally: {} };
      const was = row.tally[entry.kind] ?? { count: 0, amount: 0 };
      row.tally[entry.kind] = { count: was.count + 1, amount: was.amount + entry.amount };
      out.set(key, row);
    }
  }
  return out;
}

/** A stored tally item's counts (absent kinds are zero). */
export function tallyFromItem(item: Record<string, unknown> | undefined): Tally {
  const tally: Tally = {};
  if (!item) return tally;
  for (const kind of LEDGER_KINDS) {
    const count = Number(item[countAttribute(kind)] ?? 0);
    const amount = Number(item[amountAttribute(kind)] ?? 0);
    if (count !== 0 || amount !== 0) tally[kind] = { count, amount };
  }
  return tally;
}

/** Where two tallies differ: per kind, what was expected and what was found. */
export function tallyDifferences(expected: Tally, found: Tally): Array<{ kind: LedgerKind; field: 'count' | 'amount'; expected: number; found: number }> {
  const out: Array<{ kind: LedgerKind; field: 'count' | 'amount'; expected: number; found: number }> = [];
  for (const kind of LEDGER_KINDS) {
    const e = expected[kind] ?? { count: 0, amount: 0 };
    const f = found[kind] ?? { count: 0, amount: 0 };
    if (e.count !== f.count) out.push({ kind, field: 'count', expected: e.count, found: f.count });
    if (e.amount !== f.amount) out.push({ kind, field: 'amount', expected: e.amount, found: f.amount });
  }
  return out;
}

const count = (tally: Tally, kind: LedgerKind) => tally[kind]?.count ?? 0;
const amount = (tally: Tally, kind: LedgerKind) => tally[kind]?.amount ?? 0;

/**
 * A period's money as a reseller reads it. `adds`: adds paid (from the balance or with a code) less those given
 * back in the period; `refunds`: adds given back (a refund counts in the period it happened, which may not be
 * its add's); `spend`: cents the adds cost, net of refunds. For a parent, `agent_adds`, `sales` and `cost`: its
 * downline's delivered adds, what it was credited for them and what it paid upward; `margin` the difference.
 */
export function moneyFigures(tally: Tally) {
  const refunds = count(tally, 'refund') + count(tally, 'review_refund');
  const sales = amount(tally, 'agent_sale');
  const cost = -amount(tally, 'agent_cost');
  return {
    adds: count(tally, 'charge') - refunds,
    refunds,
    spend: -(amount(tally, 'charge') + amount(tally, 'refund') + amount(tally, 'review_refund')),
    refunded: amount(tally, 'refund') + amount(tally, 'review_refund'),
    agent_adds: count(tally, 'agent_sale'),
    sales,
    cost,
    margin: sales - cost,
  };
}
