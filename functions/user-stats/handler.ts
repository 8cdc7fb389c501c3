import { createHandler } from '../../shared/http/create-handler';
import { userStatsRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { agentLookupMessages } from '../../shared/i18n/messages/agent-lookup';
import { statsMessages } from '../../shared/i18n/messages/stats';
import { readStats } from '../../shared/domain/stats/stats-service';
import { readSeries, seriesCsv } from '../../shared/domain/stats/stats-series';
import { readAgentFigures } from '../../shared/domain/stats/stats-agents';
import { appFiguresCsv, readAppFigures } from '../../shared/domain/stats/stats-apps';
import { pagingMessages } from '../../shared/i18n/messages/paging';
import { parseRequest } from './schema';

useMessages(managementMessages, agentLookupMessages, statsMessages, pagingMessages);

export const handler = createHandler(userStatsRoute, async (state) => {
  const request = parseRequest(state);
  const now = Math.floor(state.now / 1000);
  if (request.kind === 'snapshot') return { data: await readStats(state.user, state.tenant, request, now) };
  if (request.kind === 'agents') return { data: await readAgentFigures(state.user, state.tenant, request, now) };
  if (request.kind === 'apps') {
    const figures = await readAppFigures(state.user, state.tenant, request, now);
    if (request.format === 'json') return { data: figures };
    return {
      raw: null,
      text: appFiguresCsv(figures),
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="apps-${figures.source_id}-${figures.period}.csv"` },
    };
  }
  const series = await readSeries(state.user, state.tenant, request, now);
  if (request.format === 'json') return { data: series };
  const name = `stats-${series.user_id}-${series.series}-${series.from}-${series.to}.csv`;
  return {
    raw: null,
    text: seriesCsv(series.rows),
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"` },
  };
});
