import { createHandler } from '../../shared/http/create-handler';
import { unpublishAppRoute } from '../../shared/routes/apps';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { appLifecycleMessages } from '../../shared/i18n/messages/app-lifecycle';
import { unpublishApp } from '../../shared/domain/sources/source-service';
import { parseRequest } from './schema';

useMessages(managementMessages, appLifecycleMessages);

export const handler = createHandler(unpublishAppRoute, async (state) => {
  const { sourceId, appId } = parseRequest(state);
  return { data: await unpublishApp(state.actor, sourceId, appId, Math.floor(state.now / 1000)) };
});
