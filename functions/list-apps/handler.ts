import { createHandler } from '../../shared/http/create-handler';
import { listAppsRoute } from '../../shared/routes/apps';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { pagingMessages } from '../../shared/i18n/messages/paging';
import { listApps } from '../../shared/domain/sources/source-management';
import { parseRequest } from './schema';

useMessages(managementMessages, pagingMessages);

export const handler = createHandler(listAppsRoute, async (state) => {
  const { sourceId, ...query } = parseRequest(state);
  return { data: await listApps(state.actor, sourceId, query) };
});
