import { createHandler } from '../../shared/http/create-handler';
import { unpublishAppRoute } from '../../shared/routes';
import { unpublishApp } from '../../shared/domain/sources/source-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { appIdFromPath } from '../../shared/validation/app-fields';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';

useMessages(managementMessages);

export const handler = createHandler(unpublishAppRoute, async ({ params, pathParams, tenant, user, now }) => {
  const appId = appIdFromPath(pathParams.app_id);
  parseManagementParams(params, { shape: {} });
  const data = await unpublishApp({ tenantId: tenant.tenantId, userId: user!.userId }, pathParams.source_id ?? '', appId, Math.floor(now / 1000));
  return { data };
});
