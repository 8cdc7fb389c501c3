import { createHandler } from '../../shared/http/create-handler';
import { unpublishApp } from '../../shared/domain/sources/source-service';
import { parseRequest } from './schema';

export const handler = createHandler('unpublish-app', async (state) => {
  const { sourceId, appId } = parseRequest(state);
  return { data: await unpublishApp(state.actor, sourceId, appId, Math.floor(state.now / 1000)) };
});
