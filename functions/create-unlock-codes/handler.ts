import { createHandler } from '../../shared/http/create-handler';
import { createUnlockCodes } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { createUnlockCodesShape } from './schema';

export const handler = createHandler('create-unlock-codes', async ({ params, pathParams, tenant, user, now }) => {
  const input = parseManagementParams(params, { shape: createUnlockCodesShape });
  return { data: await createUnlockCodes({ tenantId: tenant.tenantId, userId: user!.userId }, pathParams.source_id ?? '', input, Math.floor(now / 1000)) };
});
