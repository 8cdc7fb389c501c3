import { createHandler } from '../../shared/http/create-handler';
import { deleteAppRoute } from '../../shared/routes/apps';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { appLifecycleMessages } from '../../shared/i18n/messages/app-lifecycle';
import { deleteApp } from '../../shared/domain/sources/source-management';
import { parseRequest } from './schema';

useMessages(managementMessages, appLifecycleMessages);

// A delete works whatever the owner's subscription says; a published app must be unpublished first.
export const handler = createHandler(deleteAppRoute, async (state) => {
  const { sourceId, appId } = parseRequest(state);
  return { data: await deleteApp(state.actor, sourceId, appId) };
});
