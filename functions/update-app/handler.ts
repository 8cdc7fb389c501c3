import { createHandler } from '../../shared/http/create-handler';
import { editApp } from '../../shared/domain/sources/source-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { appFieldsShape, appIdFromPath, readOnlyAppFields, supplied } from '../../shared/validation/app-fields';

export const handler = createHandler('update-app', async ({ params, pathParams, actor, now }) => {
  const appId = appIdFromPath(pathParams.app_id);
  const changes = supplied(parseManagementParams(params, { shape: appFieldsShape, readOnly: readOnlyAppFields, requireOne: true }));
  const data = await editApp(actor, pathParams.source_id ?? '', appId, changes, Math.floor(now / 1000));
  return { data };
});
