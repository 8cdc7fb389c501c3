import { createHandler } from '../../shared/http/create-handler';
import { sourceDetailRoute } from '../../shared/routes/sources';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { deleteSource, readSource } from '../../shared/domain/sources/source-management';
import { parseRequest } from './schema';

useMessages(managementMessages);

// Reads and deletes work whatever the owner's subscription says.
export const handler = createHandler(sourceDetailRoute, async (state) => {
  const { action, sourceId } = parseRequest(state);
  if (action === 'read') return { data: await readSource(state.actor, sourceId) };
  return { data: await deleteSource(state.actor, sourceId, Math.floor(state.now / 1000)) };
});
