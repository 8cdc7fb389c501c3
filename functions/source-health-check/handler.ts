import { createHandler } from '../../shared/http/create-handler';
import { checkSourceHealthNow } from '../../shared/domain/link-health/health-check-service';
import { parseRequest } from './schema';

export const handler = createHandler('source-health-check', async (state) => {
  const { sourceId } = parseRequest(state);
  return { data: await checkSourceHealthNow(state.actor, sourceId) };
});
