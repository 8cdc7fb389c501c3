import { createHandler } from '../../shared/http/create-handler';
import { sourceNewsRoute } from '../../shared/routes/sources';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { newsMessages } from '../../shared/i18n/messages/news';
import { listNews, postNews } from '../../shared/domain/sources/news-service';
import { parseRequest } from './schema';

useMessages(managementMessages, newsMessages);

export const handler = createHandler(sourceNewsRoute, async (state) => {
  const request = parseRequest(state);
  if (request.action === 'list') return { data: await listNews(state.actor, request.sourceId) };
  return { data: await postNews(state.actor, request.sourceId, request.item, Math.floor(state.now / 1000)) };
});
