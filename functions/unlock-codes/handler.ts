import { createHandler } from '../../shared/http/create-handler';
import { createUnlockCodes, listUnlockCodes } from '../../shared/domain/sources/protection-service';
import { parseRequest } from './schema';

export const handler = createHandler('unlock-codes', async (state) => {
  const request = parseRequest(state);
  if (request.action === 'list') return { data: await listUnlockCodes(state.actor, request.sourceId) };
  return { data: await createUnlockCodes(state.actor, request.sourceId, request, Math.floor(state.now / 1000)) };
});
