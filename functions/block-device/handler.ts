import { createHandler } from '../../shared/http/create-handler';
import { blockByHand } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';

export const handler = createHandler('block-device', async ({ params, pathParams, tenant, user, now }) => {
  parseManagementParams(params, { shape: {} });
  const actor = { tenantId: tenant.tenantId, userId: user!.userId };
  return { data: await blockByHand(actor, pathParams.source_id ?? '', pathParams.udid, Math.floor(now / 1000)) };
});
