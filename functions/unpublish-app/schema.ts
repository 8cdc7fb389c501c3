import type { RequestState } from '../../shared/http/request-state';
import { appIdFromPath } from '../../shared/validation/app-fields';
import { parseManagementParams } from '../../shared/validation/management-params';

/** The path names the app; the request takes no parameters. */
export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>): { sourceId: string; appId: number } {
  const appId = appIdFromPath(pathParams.app_id);
  parseManagementParams(params, { shape: {} });
  return { sourceId: pathParams.source_id ?? '', appId };
}
