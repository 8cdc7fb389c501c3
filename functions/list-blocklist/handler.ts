import { createHandler } from '../../shared/http/create-handler';
import { blocklist } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';

export const handler = createHandler('list-blocklist', async ({ params, pathParams, actor }) => {
  parseManagementParams(params, { shape: {} });
  return { data: await blocklist(actor, pathParams.source_id ?? '') };
});
