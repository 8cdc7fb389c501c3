import { createHandler } from '../../shared/http/create-handler';
import { updateAppRoute } from '../../shared/routes';
import { useMessages } from '../../shared/i18n/localize';
import { managementMessages } from '../../shared/i18n/messages/management';
import { editApp } from '../../shared/domain/sources/source-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { appFieldsShape, appIdFromPath, readOnlyAppFields, supplied } from '../../shared/validation/app-fields';

useMessages(managementMessages);

export const handler = createHandler(updateAppRoute, async ({ params, pathParams, tenant, user, now }) => {
  const appId = appIdFromPath(pathParams.app_id);
  const changes = supplied(parseManagementParams(params, { shape: appFieldsShape, readOnly: readOnlyAppFields, requireOne: true }));
  const data = await editApp({ tenantId: tenant.tenantId, userId: user!.userId }, pathParams.source_id ?? '', appId, changes, Math.floor(now / 1000));
  return { data };
});
