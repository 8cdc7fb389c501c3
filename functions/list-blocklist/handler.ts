import { createHandler } from '../../shared/http/create-handler';
import { listBlocklistRoute } from '../../shared/routes';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { blocklist } from '../../shared/domain/sources/protection-service';
import { parseRequest } from './schema';

useMessages(managementMessages);

export const handler = createHandler(listBlocklistRoute, async (state) => {
  const { sourceId } = parseRequest(state);
  return { data: await blocklist(state.actor, sourceId) };
});
