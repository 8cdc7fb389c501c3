import { createHandler } from '../../shared/http/create-handler';
import { unlockCodesRoute } from '../../shared/routes';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { createUnlockCodes, listUnlockCodes } from '../../shared/domain/sources/protection-service';
import { parseRequest } from './schema';

useMessages(managementMessages);

export const handler = createHandler(unlockCodesRoute, async (state) => {
  const request = parseRequest(state);
  if (request.action === 'list') return { data: await listUnlockCodes(state.actor, request.sourceId) };
  return { data: await createUnlockCodes(state.actor, request.sourceId, request, Math.floor(state.now / 1000)) };
});
