/**
 * A reseller's money per UTC day or month (`/api/user/stats?series=day|month`), for the caller or one of its own
 * agents: one row per period from the ledger's tallies, read by key in one `BatchGetItem` whatever the range
 * (each period is its own item, so no Query or scan can grow with the ledger).
 *
 * The range is bounded so that one request is one BatchGetItem (at most 100 keys): 92 days (the longest calendar
 * quarter) or 24 months (two years, to compare a month with the same month a year before). A longer history is
 * read a range at a time; the rows of a period are the same whichever range they are read in.
 */
import { readTallySeries } from '../../db/repositories/stats-snapshot-repository';
import { moneyFigures, periodBounds, periodStart, periodsBetween, tallyKey, tallyPeriods, type TallyPeriodKind } from '../../records/ledger-tally';
import type { Tenant } from '../../records/tenant';
import type { TokenOwner } from '../../records/user';
import { DomainError } from '../errors';
import { readSubject } from '../agents/agent-access';

/** The most periods one series answers (and why: see above). */
export const SERIES_MAX = { day: 92, month: 24 } as const satisfies Record<TallyPeriodKind, number>;
/** Without `from`: the last 30 days, or the last 12 months, up to `to`. */
export const SERIES_DEFAULT = { day: 30, month: 12 } as const satisfies Record<TallyPeriodKind, number>;

export interface SeriesRequest {
  agent: string | undefined;
  series: TallyPeriodKind;
  /** `YYYY-MM-DD` for days, `YYYY-MM` for months (the schema checks the form); absent: see SERIES_DEFAULT. */
  from: string | undefined;
  /** Absent: the current period. */
  to: string | undefined;
}

/** The columns of a row, in the CSV's order. */
export const SERIES_COLUMNS = ['period', 'start', 'end', 'adds', 'refunds', 'spend', 'refunded', 'agent_adds', 'sales', 'cost', 'margin'] as const;
export type SeriesRow = Record<(typeof SERIES_COLUMNS)[number], string | number>;

const rangeInvalid = (fields: string[]) => new DomainError('validation', 'stats_range_invalid', { fields, params: { days: SERIES_MAX.day, months: SERIES_MAX.month }, data: { max_days: SERIES_MAX.day, max_months: SERIES_MAX.month } });

/** The periods a request names, refused before anything is read when the range is reversed or too long. */
export function seriesPeriods(request: Pick<SeriesRequest, 'series' | 'from' | 'to'>, now: number) {
  const kind = request.series;
  const current = tallyPeriods(now)[kind === 'day' ? 0 : 1];
  const to = request.to ?? current.id;
  let from = request.from;
  if (from === undefined) {
    // Count back from `to`: the default span's first period.
    let at = periodStart({ kind, id: to });
    for (let i = 1; i < SERIES_DEFAULT[kind]; i++) at = periodBounds(kind, at - 1).start;
    from = tallyPeriods(at)[kind === 'day' ? 0 : 1].id;
  }
  if (from > to) throw rangeInvalid(request.from === undefined ? ['to'] : ['from', 'to']);
  // Counting stops one past the bound, so a hostile range (year 0001 to 9999) costs nothing to refuse.
  const periods = periodsBetween(kind, from, to, SERIES_MAX[kind] + 1);
  if (periods.length > SERIES_MAX[kind]) throw rangeInvalid(['from', 'to']);
  return { kind, from, to, periods };
}

export async function readSeries(owner: TokenOwner, tenant: Tenant, request: SeriesRequest, now: number) {
  // A token is valid on every site, its money only on its own tenant's (as the balance and the ledger answer).
  if (owner.tenantId !== tenant.tenantId) throw new DomainError('token_invalid', 'token_invalid');
  const { kind, from, to, periods } = seriesPeriods(request, now);
  const subject = await readSubject(owner, tenant, request.agent);
  const tallies = await readTallySeries(subject.userId, periods);
  const rows: SeriesRow[] = periods.map((period) => {
    const start = periodStart(period);
    return { period: period.id, start, end: periodBounds(kind, start).end, ...moneyFigures(tallies.get(tallyKey(subject.userId, period)) ?? {}) };
  });
  return { user_id: subject.userId, agent: request.agent === undefined ? null : subject.userId, time: now, currency: tenant.settings.currency, series: kind, from, to, rows };
}

/** The rows as CSV (RFC 4180, CRLF): a header row, then one line per period. Every cell is a date or a number. */
export function seriesCsv(rows: readonly SeriesRow[]): string {
  return [SERIES_COLUMNS.join(','), ...rows.map((row) => SERIES_COLUMNS.map((column) => String(row[column])).join(','))].map((line) => `${line}\r\n`).join('');
}
