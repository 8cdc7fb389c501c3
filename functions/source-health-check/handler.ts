import { createHandler } from '../../shared/http/create-handler';
import { sourceHealthCheckRoute } from '../../shared/routes';
import { checkSourceHealthNow } from '../../shared/domain/link-health/health-check-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { echoedSourceShape, requireSameSource } from '../../shared/validation/echoed-source';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';

useMessages(managementMessages);

export const handler = createHandler(sourceHealthCheckRoute, async ({ params, pathParams, tenant, user }) => {
  const sourceId = requireSameSource(parseManagementParams(params, { shape: echoedSourceShape }), pathParams.source_id ?? '');
  return { data: await checkSourceHealthNow({ tenantId: tenant.tenantId, userId: user!.userId }, sourceId) };
});
