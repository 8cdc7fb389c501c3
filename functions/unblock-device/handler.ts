import { createHandler } from '../../shared/http/create-handler';
import { unblock } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';

export const handler = createHandler('unblock-device', async ({ params, pathParams, tenant, user }) => {
  parseManagementParams(params, { shape: {} });
  return { data: await unblock({ tenantId: tenant.tenantId, userId: user!.userId }, pathParams.source_id ?? '', pathParams.udid) };
});
