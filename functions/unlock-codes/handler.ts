import { createHandler } from '../../shared/http/create-handler';
import { createUnlockCodes, listUnlockCodes } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { createUnlockCodesShape } from './schema';

// GET lists the source's codes; POST creates a batch.
export const handler = createHandler('unlock-codes', async ({ event, params, pathParams, actor, now }) => {
  const sourceId = pathParams.source_id ?? '';
  if (event.httpMethod === 'GET') {
    parseManagementParams(params, { shape: {} });
    return { data: await listUnlockCodes(actor, sourceId) };
  }
  const input = parseManagementParams(params, { shape: createUnlockCodesShape });
  return { data: await createUnlockCodes(actor, sourceId, input, Math.floor(now / 1000)) };
});
