import type { RequestState } from '../../shared/http/request-state';
import { parseManagementParams } from '../../shared/validation/management-params';

interface BlocklistEntryRequest {
  /** PUT blocks the path's UDID by hand; DELETE takes it off the block list. */
  action: 'block' | 'unblock';
  sourceId: string;
  udid: string | undefined;
}

export function parseRequest({ event, params, pathParams }: Pick<RequestState, 'event' | 'params' | 'pathParams'>): BlocklistEntryRequest {
  parseManagementParams(params, { shape: {} });
  return { action: event.httpMethod === 'DELETE' ? 'unblock' : 'block', sourceId: pathParams.source_id ?? '', udid: pathParams.udid };
}
