import { createHandler } from '../../shared/http/create-handler';
import { userStatsRoute } from '../../shared/routes/account';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { agentLookupMessages } from '../../shared/i18n/messages/agent-lookup';
import { readStats } from '../../shared/domain/stats/stats-service';
import { parseRequest } from './schema';

useMessages(managementMessages, agentLookupMessages);

export const handler = createHandler(userStatsRoute, async (state) => {
  const request = parseRequest(state);
  return { data: await readStats(state.user, state.tenant, request, Math.floor(state.now / 1000)) };
});
