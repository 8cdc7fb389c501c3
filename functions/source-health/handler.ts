import { createHandler } from '../../shared/http/create-handler';
import { sourceHealthRoute } from '../../shared/routes';
import { sourceHealth } from '../../shared/domain/link-health/health-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { echoedSourceShape, requireSameSource } from '../../shared/validation/echoed-source';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';

useMessages(managementMessages);

export const handler = createHandler(sourceHealthRoute, async ({ params, pathParams, tenant, user }) => {
  const sourceId = requireSameSource(parseManagementParams(params, { shape: echoedSourceShape }), pathParams.source_id ?? '');
  return { data: await sourceHealth({ tenantId: tenant.tenantId, userId: user!.userId }, sourceId) };
});
