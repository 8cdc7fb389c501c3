import { listCaptures } from '../../shared/domain/udid-capture/capture-list';
import { createHandler } from '../../shared/http/create-handler';
import { udidCapturesRoute } from '../../shared/routes/udid-capture';
import { parseRequest } from './schema';

/** GET|POST /api/udid/captures: the caller's captures on this tenant, newest first. */
export const handler = createHandler(udidCapturesRoute, async (state) => {
  const { limit, cursor } = parseRequest(state);
  return { data: await listCaptures(state.actor, limit, cursor) };
});
