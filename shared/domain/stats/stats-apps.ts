/**
 * Per-app figures of one of the caller's sources for one UTC day (`/api/user/stats?by=app&source=…&period=…`):
 * each app's downloads (the gate's redirects, summed asynchronously from its log lines: download-counts.ts) and
 * the source's installs (UDID captures through its page, counted in the capture's own write). One read of the
 * source, one Query of its apps (bounded by the source's app quota) and one BatchGetItem of at most 100 apps'
 * counters and the source's, a page at a time; past days do not change, so a client may keep what it read.
 */
import { listApps } from '../../db/repositories/app-repository';
import { appDayKey, readAppCounts, sourceDayKey, utcDay } from '../../db/repositories/app-tally-repository';
import { getSource } from '../../db/repositories/source-repository';
import { periodBounds, periodStart } from '../../records/ledger-tally';
import type { Tenant } from '../../records/tenant';
import type { TokenOwner } from '../../records/user';
import { DomainError } from '../errors';
import { readSubject } from '../agents/agent-access';

/** Apps per page (and BatchGetItem's 100 keys with the source's own counter: 99 + 1). */
export const APPS_PAGE = 99;

export interface AppFiguresRequest {
  agent: string | undefined;
  source: string;
  /** `YYYY-MM-DD`; absent: today (UTC). */
  period: string | undefined;
  /** The last app id of the page before. */
  after: number | undefined;
}

export const APP_COLUMNS = ['day', 'app_id', 'name', 'downloads'] as const;

export async function readAppFigures(owner: TokenOwner, tenant: Tenant, request: AppFiguresRequest, now: number) {
  if (owner.tenantId !== tenant.tenantId) throw new DomainError('token_invalid', 'token_invalid');
  const subject = await readSubject(owner, tenant, request.agent);
  const source = await getSource(request.source);
  if (!source || source.tenant_id !== tenant.tenantId || source.owner_id !== subject.userId) throw new DomainError('source_not_found', 'source_not_found');
  const day = request.period ?? utcDay(now);
  const apps = (await listApps(source.source_id)).filter((a) => request.after === undefined || a.id > request.after).sort((a, b) => a.id - b.id);
  const page = apps.slice(0, APPS_PAGE);
  const installsKey = sourceDayKey(subject.userId, source.source_id, day);
  const counts = await readAppCounts([installsKey, ...page.map((a) => appDayKey(subject.userId, source.source_id, a.id, day))]);
  const start = periodStart({ kind: 'day', id: day });
  return {
    user_id: subject.userId,
    agent: request.agent === undefined ? null : subject.userId,
    source_id: source.source_id,
    time: now,
    period: day,
    start,
    end: periodBounds('day', start).end,
    installs: counts.get(installsKey)?.installs ?? 0,
    rows: page.map((a) => ({ app_id: a.id, name: a.name, downloads: counts.get(appDayKey(subject.userId, source.source_id, a.id, day))?.downloads ?? 0 })),
    next_cursor: apps.length > page.length ? Buffer.from(String(page[page.length - 1]!.id), 'utf8').toString('base64url') : null,
  };
}

/** The rows as CSV (a header row, CRLF), the day on every line. */
export function appFiguresCsv(figures: Awaited<ReturnType<typeof readAppFigures>>): string {
  const cell = (v: string | number) => (typeof v === 'string' && /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v));
  const lines = [APP_COLUMNS.join(','), ...figures.rows.map((r) => [figures.period, r.app_id, r.name, r.downloads].map(cell).join(','))];
  return lines.map((l) => `${l}\r\n`).join('');
}
