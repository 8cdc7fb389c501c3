import { createHandler } from '../../shared/http/create-handler';
import { listBlocklistRoute } from '../../shared/routes';
import { blocklist } from '../../shared/domain/sources/protection-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';

useMessages(managementMessages);

export const handler = createHandler(listBlocklistRoute, async ({ params, pathParams, tenant, user }) => {
  parseManagementParams(params, { shape: {} });
  return { data: await blocklist({ tenantId: tenant.tenantId, userId: user!.userId }, pathParams.source_id ?? '') };
});
