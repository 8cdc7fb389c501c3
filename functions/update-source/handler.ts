import { createHandler } from '../../shared/http/create-handler';
import { updateSourceSettings } from '../../shared/domain/sources/source-service';
import { parseRequest } from './schema';

export const handler = createHandler('update-source', async (state) => {
  const { sourceId, changes } = parseRequest(state);
  return { data: await updateSourceSettings(state.actor, sourceId, changes, Math.floor(state.now / 1000)) };
});
