/**
 * A parent's figures per direct agent for one UTC day or month (`/api/user/stats?by=agent&period=…`): each agent
 * one level down with that period's money, a page at a time. A parent's agents have no upper bound, so the read
 * is bounded per page instead: one Query of at most `AGENTS_PAGE` entries of the `by-parent` index and one
 * BatchGetItem of their tallies (under BatchGetItem's 100 keys); `next_cursor` asks for the next page.
 */
import { agentsPageOf } from '../../db/repositories/user-repository';
import { readTalliesOf } from '../../db/repositories/stats-snapshot-repository';
import { moneyFigures, periodBounds, periodStart, tallyPeriods, type TallyPeriod } from '../../records/ledger-tally';
import type { Tenant } from '../../records/tenant';
import type { TokenOwner } from '../../records/user';
import { DomainError } from '../errors';
import { readSubject } from '../agents/agent-access';

/** Agents per page. */
export const AGENTS_PAGE = 100;

export interface AgentFiguresRequest {
  agent: string | undefined;
  /** `YYYY-MM-DD` (a day) or `YYYY-MM` (a month); absent: the current month. */
  period: string | undefined;
  /** The last agent id of the page before (decoded from the caller's cursor by the route's schema). */
  after: string | undefined;
}

export async function readAgentFigures(owner: TokenOwner, tenant: Tenant, request: AgentFiguresRequest, now: number) {
  if (owner.tenantId !== tenant.tenantId) throw new DomainError('token_invalid', 'token_invalid');
  const after = request.after;
  const period: TallyPeriod = request.period === undefined ? tallyPeriods(now)[1] : { kind: request.period.length === 7 ? 'month' : 'day', id: request.period };
  const subject = await readSubject(owner, tenant, request.agent);
  const page = await agentsPageOf(subject.userId, AGENTS_PAGE, after);
  // An agent is always on its parent's tenant; the filter keeps a stray index entry from showing anyway.
  const agents = page.agents.filter((a) => a.tenantId === tenant.tenantId);
  const tallies = await readTalliesOf(
    agents.map((a) => a.userId),
    period,
  );
  const start = periodStart(period);
  return {
    user_id: subject.userId,
    agent: request.agent === undefined ? null : subject.userId,
    time: now,
    currency: tenant.settings.currency,
    period: period.id,
    start,
    end: periodBounds(period.kind, start).end,
    rows: agents.map((a) => ({ agent_id: a.userId, name: a.name, suspended: a.suspended, ...moneyFigures(tallies.get(a.userId) ?? {}) })),
    next_cursor: page.last === undefined ? null : Buffer.from(page.last, 'utf8').toString('base64url'),
  };
}
