import { createHandler } from '../../shared/http/create-handler';
import { publishAppRoute } from '../../shared/routes';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { ipaMessages } from '../../shared/i18n/messages/ipa';
import { publishApp } from '../../shared/domain/sources/publish-service';
import { parseRequest } from './schema';

useMessages(managementMessages, ipaMessages);

export const handler = createHandler(publishAppRoute, async (state) => {
  const { sourceId, appId } = parseRequest(state);
  return { data: await publishApp(state.actor, sourceId, appId, state.tenant.settings, Math.floor(state.now / 1000)) };
});
