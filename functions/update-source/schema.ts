import type { RequestState } from '../../shared/http/request-state';
import { parseManagementParams, supplied } from '../../shared/validation/management-params';
import { updateSourceShape } from '../../shared/validation/source-settings';

/** Present in the response or set by the service, never by the caller. */
const readOnlySourceFields = ['source_id', 'source_url', 'app_count'] as const;

export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>) {
  const changes = supplied(parseManagementParams(params, { shape: updateSourceShape, readOnly: readOnlySourceFields, requireOne: true }));
  return { sourceId: pathParams.source_id ?? '', changes };
}
