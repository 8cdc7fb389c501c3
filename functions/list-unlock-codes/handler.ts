import { createHandler } from '../../shared/http/create-handler';
import { listUnlockCodes } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';

export const handler = createHandler('list-unlock-codes', async ({ params, pathParams, tenant, user }) => {
  parseManagementParams(params, { shape: {} });
  return { data: await listUnlockCodes({ tenantId: tenant.tenantId, userId: user!.userId }, pathParams.source_id ?? '') };
});
