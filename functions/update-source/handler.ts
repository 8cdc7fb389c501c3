import { createHandler } from '../../shared/http/create-handler';
import { updateSourceRoute } from '../../shared/routes';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { updateSourceSettings } from '../../shared/domain/sources/source-service';
import { parseRequest } from './schema';

useMessages(managementMessages);

export const handler = createHandler(updateSourceRoute, async (state) => {
  const { sourceId, changes } = parseRequest(state);
  return { data: await updateSourceSettings(state.actor, sourceId, changes, Math.floor(state.now / 1000)) };
});
