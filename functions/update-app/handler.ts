import { createHandler } from '../../shared/http/create-handler';
import { editApp } from '../../shared/domain/sources/source-service';
import { parseRequest } from './schema';

export const handler = createHandler('update-app', async (state) => {
  const { sourceId, appId, changes } = parseRequest(state);
  return { data: await editApp(state.actor, sourceId, appId, changes, Math.floor(state.now / 1000)) };
});
