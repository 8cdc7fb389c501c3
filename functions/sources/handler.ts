import { createHandler } from '../../shared/http/create-handler';
import { sourcesRoute } from '../../shared/routes/sources';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { subscriptionStateMessages } from '../../shared/i18n/messages/subscription-state';
import { quotaMessages } from '../../shared/i18n/messages/quota';
import { pagingMessages } from '../../shared/i18n/messages/paging';
import { createOwnedSource, listSources } from '../../shared/domain/sources/source-management';
import { parseRequest } from './schema';

useMessages(managementMessages, subscriptionStateMessages, quotaMessages, pagingMessages);

export const handler = createHandler(sourcesRoute, async (state) => {
  const request = parseRequest(state);
  if (request.action === 'list') return { data: await listSources(state.actor, request) };
  return { data: await createOwnedSource(state.actor, request.fields, Math.floor(state.now / 1000)) };
});
