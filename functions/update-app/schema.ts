import type { RequestState } from '../../shared/http/request-state';
import { appFieldsShape, appIdFromPath, checkOsRange, readOnlyAppFields } from '../../shared/validation/app-fields';
import { parseManagementParams, supplied } from '../../shared/validation/management-params';

export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>) {
  const appId = appIdFromPath(pathParams.app_id);
  const changes = supplied(parseManagementParams(params, { shape: appFieldsShape, readOnly: readOnlyAppFields, requireOne: true }));
  checkOsRange(changes);
  return { sourceId: pathParams.source_id ?? '', appId, changes };
}
