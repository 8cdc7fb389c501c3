import { createHandler } from '../../shared/http/create-handler';
import { unpublishApp } from '../../shared/domain/sources/source-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { appIdFromPath } from '../../shared/validation/app-fields';

export const handler = createHandler('unpublish-app', async ({ params, pathParams, actor, now }) => {
  const appId = appIdFromPath(pathParams.app_id);
  parseManagementParams(params, { shape: {} });
  const data = await unpublishApp(actor, pathParams.source_id ?? '', appId, Math.floor(now / 1000));
  return { data };
});
