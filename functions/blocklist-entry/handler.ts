import { createHandler } from '../../shared/http/create-handler';
import { blocklistEntryRoute } from '../../shared/routes';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { blockByHand, unblock } from '../../shared/domain/sources/protection-service';
import { parseRequest } from './schema';

useMessages(managementMessages);

export const handler = createHandler(blocklistEntryRoute, async (state) => {
  const { action, sourceId, udid } = parseRequest(state);
  if (action === 'unblock') return { data: await unblock(state.actor, sourceId, udid) };
  return { data: await blockByHand(state.actor, sourceId, udid, Math.floor(state.now / 1000)) };
});
