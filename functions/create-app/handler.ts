import { createHandler } from '../../shared/http/create-handler';
import { createAppDraft } from '../../shared/domain/sources/source-service';
import { parseRequest } from './schema';

export const handler = createHandler('create-app', async (state) => {
  const { sourceId, fields } = parseRequest(state);
  return { data: await createAppDraft(state.actor, sourceId, fields, state.tenant.settings, Math.floor(state.now / 1000)) };
});
