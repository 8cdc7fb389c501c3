import { createHandler } from '../../shared/http/create-handler';
import { sourceHealth } from '../../shared/domain/link-health/health-service';
import { parseRequest } from './schema';

export const handler = createHandler('source-health', async (state) => {
  const { sourceId } = parseRequest(state);
  return { data: await sourceHealth(state.actor, sourceId) };
});
