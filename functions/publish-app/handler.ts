import { createHandler } from '../../shared/http/create-handler';
import { publishApp } from '../../shared/domain/sources/publish-service';
import { parseRequest } from './schema';

export const handler = createHandler('publish-app', async (state) => {
  const { sourceId, appId } = parseRequest(state);
  return { data: await publishApp(state.actor, sourceId, appId, state.tenant.settings, Math.floor(state.now / 1000)) };
});
