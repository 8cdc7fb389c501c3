import { createHandler } from '../../shared/http/create-handler';
import { blockByHand, unblock } from '../../shared/domain/sources/protection-service';
import { parseRequest } from './schema';

export const handler = createHandler('blocklist-entry', async (state) => {
  const { action, sourceId, udid } = parseRequest(state);
  if (action === 'unblock') return { data: await unblock(state.actor, sourceId, udid) };
  return { data: await blockByHand(state.actor, sourceId, udid, Math.floor(state.now / 1000)) };
});
