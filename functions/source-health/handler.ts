import { createHandler } from '../../shared/http/create-handler';
import { sourceHealthRoute } from '../../shared/routes/sources';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { sourceHealth } from '../../shared/domain/link-health/health-service';
import { parseRequest } from './schema';

useMessages(managementMessages);

export const handler = createHandler(sourceHealthRoute, async (state) => {
  const { sourceId } = parseRequest(state);
  return { data: await sourceHealth(state.actor, sourceId) };
});
