import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import type { StatsRequest } from '../../shared/domain/stats/stats-service';
import type { SeriesRequest } from '../../shared/domain/stats/stats-series';
import type { AgentFiguresRequest } from '../../shared/domain/stats/stats-agents';
import type { AppFiguresRequest } from '../../shared/domain/stats/stats-apps';
import { cursorText, decodeCursor } from '../../shared/validation/paging';
import { ID_PATTERN } from '../../shared/ids';
import { DomainError, validationError } from '../../shared/domain/errors';
import { agentIdParam } from '../../shared/validation/fields';
import { parseManagementParams } from '../../shared/validation/management-params';

/** A real UTC day (`2026-11-27`) or month (`2026-11`) from 1970 on: `2026-02-30` and `0099-01` are not. */
const realPeriod = (value: string) => {
  const day = value.length === 7 ? `${value}-01` : value;
  const at = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(at) && at >= 0 && new Date(at).toISOString().slice(0, 10) === day;
};
const periodParam = () => z.optional(z.string().check(z.regex(/^\d{4}-\d{2}(-\d{2})?$/), z.refine(realPeriod)));

export const statsShape = {
  agent: agentIdParam(),
  series: z.optional(z.enum(['day', 'month'])),
  from: periodParam(),
  to: periodParam(),
  format: z.optional(z.enum(['json', 'csv'])),
  by: z.optional(z.enum(['agent', 'app'])),
  source_id: z.optional(z.string().check(z.regex(ID_PATTERN))),
  period: periodParam(),
  cursor: z.optional(cursorText()),
};

export type UserStatsRequest =
  | ({ kind: 'snapshot' } & StatsRequest)
  | ({ kind: 'series'; format: 'json' | 'csv' } & SeriesRequest)
  | ({ kind: 'agents' } & AgentFiguresRequest)
  | ({ kind: 'apps'; format: 'json' | 'csv' } & AppFiguresRequest);

/**
 * `agent` (one of the caller's own agents) for the dashboard; with `series` (`day` or `month`), `from`/`to` in
 * that series' form and `format`; with `by=agent`, `period` and `cursor` (each direct agent's figures); with
 * `by=app`, `source_id`, a day `period`, `cursor` and `format` (each app's downloads and the source's installs). Anything
 * else is refused by name.
 */
export function parseRequest({ params }: Pick<RequestState, 'params'>): UserStatsRequest {
  const p = parseManagementParams(params, { shape: statsShape });
  if (p.by !== undefined && p.series !== undefined) throw validationError('invalid_value', ['by', 'series']);
  if (p.by === 'app') {
    // One source's apps for one UTC day; `format=csv` as the series have it.
    if (p.source_id === undefined) throw validationError('invalid_value', ['source_id']);
    if (p.period !== undefined && p.period.length !== 10) throw validationError('invalid_value', ['period']);
    const stray = (['from', 'to'] as const).filter((k) => p[k] !== undefined);
    if (stray.length) throw new DomainError('validation', 'stats_series_required', { fields: [...stray] });
    const after = decodeCursor(p.cursor, /^\d{1,9}$/);
    return { kind: 'apps', agent: p.agent, source: p.source_id, period: p.period, after: after === undefined ? undefined : Number(after), format: p.format ?? 'json' };
  }
  if (p.source_id !== undefined) throw validationError('invalid_value', ['source_id']);
  if (p.series === undefined) {
    const stray = (['from', 'to', 'format'] as const).filter((k) => p[k] !== undefined);
    if (stray.length) throw new DomainError('validation', 'stats_series_required', { fields: [...stray] });
  }
  if (p.by === undefined) {
    const stray = (['period', 'cursor'] as const).filter((k) => p[k] !== undefined);
    if (stray.length) throw new DomainError('validation', 'stats_by_agent_required', { fields: [...stray] });
  }
  if (p.by !== undefined) return { kind: 'agents', agent: p.agent, period: p.period, after: decodeCursor(p.cursor, ID_PATTERN) };
  if (p.series === undefined) return { kind: 'snapshot', agent: p.agent };
  // A day series names days, a month series months.
  const form = p.series === 'day' ? 10 : 7;
  const misfit = (['from', 'to'] as const).filter((k) => p[k] !== undefined && p[k].length !== form);
  if (misfit.length) throw validationError('invalid_value', [...misfit]);
  return { kind: 'series', agent: p.agent, series: p.series, from: p.from, to: p.to, format: p.format ?? 'json' };
}
