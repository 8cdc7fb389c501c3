import { createHandler } from '../../shared/http/create-handler';
import { sourceHealthCheckRoute } from '../../shared/routes/sources';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { checkSourceHealthNow } from '../../shared/domain/link-health/health-check-service';
import { parseRequest } from './schema';

useMessages(managementMessages);

export const handler = createHandler(sourceHealthCheckRoute, async (state) => {
  const { sourceId } = parseRequest(state);
  return { data: await checkSourceHealthNow(state.actor, sourceId) };
});
