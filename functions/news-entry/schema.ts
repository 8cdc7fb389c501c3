import type { RequestState } from '../../shared/http/request-state';
import { parseManagementParams } from '../../shared/validation/management-params';

export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>) {
  parseManagementParams(params, { shape: {} });
  return { sourceId: pathParams.source_id ?? '', newsId: pathParams.news_id ?? '' };
}
