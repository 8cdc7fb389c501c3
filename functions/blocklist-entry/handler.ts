import { createHandler } from '../../shared/http/create-handler';
import { blockByHand, unblock } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';

// PUT blocks the path's UDID by hand; DELETE takes it off the block list.
export const handler = createHandler('blocklist-entry', async ({ event, params, pathParams, actor, now }) => {
  parseManagementParams(params, { shape: {} });
  const sourceId = pathParams.source_id ?? '';
  if (event.httpMethod === 'DELETE') return { data: await unblock(actor, sourceId, pathParams.udid) };
  return { data: await blockByHand(actor, sourceId, pathParams.udid, Math.floor(now / 1000)) };
});
