import { createHandler } from '../../shared/http/create-handler';
import { blocklist } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';

export const handler = createHandler('list-blocklist', async ({ params, pathParams, tenant, user }) => {
  parseManagementParams(params, { shape: {} });
  return { data: await blocklist({ tenantId: tenant.tenantId, userId: user!.userId }, pathParams.source_id ?? '') };
});
