import type { RequestState } from '../../shared/http/request-state';
import { parseManagementParams } from '../../shared/validation/management-params';

/** GET …/blocklist names its source in the path and takes no parameters. */
export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>): { sourceId: string } {
  parseManagementParams(params, { shape: {} });
  return { sourceId: pathParams.source_id ?? '' };
}
