import { createHandler } from '../../shared/http/create-handler';
import { blocklist } from '../../shared/domain/sources/protection-service';
import { parseRequest } from './schema';

export const handler = createHandler('list-blocklist', async (state) => {
  const { sourceId } = parseRequest(state);
  return { data: await blocklist(state.actor, sourceId) };
});
