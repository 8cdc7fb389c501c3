import { createHandler } from '../../shared/http/create-handler';
import { newsEntryRoute } from '../../shared/routes/sources';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { newsMessages } from '../../shared/i18n/messages/news';
import { appLifecycleMessages } from '../../shared/i18n/messages/app-lifecycle';
import { deleteNews } from '../../shared/domain/sources/news-service';
import { parseRequest } from './schema';

useMessages(managementMessages, newsMessages, appLifecycleMessages);

export const handler = createHandler(newsEntryRoute, async (state) => {
  const { sourceId, newsId } = parseRequest(state);
  return { data: await deleteNews(state.actor, sourceId, newsId) };
});
