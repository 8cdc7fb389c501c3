import { createHandler } from '../../shared/http/create-handler';
import { blocklistEntryRoute } from '../../shared/routes';
import { blockByHand, unblock } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';

// PUT blocks the path's UDID by hand; DELETE takes it off the block list.
useMessages(managementMessages);

export const handler = createHandler(blocklistEntryRoute, async ({ event, params, pathParams, tenant, user, now }) => {
  parseManagementParams(params, { shape: {} });
  const actor = { tenantId: tenant.tenantId, userId: user!.userId };
  const sourceId = pathParams.source_id ?? '';
  if (event.httpMethod === 'DELETE') return { data: await unblock(actor, sourceId, pathParams.udid) };
  return { data: await blockByHand(actor, sourceId, pathParams.udid, Math.floor(now / 1000)) };
});
