import type { RequestState } from '../../shared/http/request-state';
import { udidParam } from '../../shared/validation/fields';
import { parseManagementParams } from '../../shared/validation/management-params';

interface BlocklistEntryRequest {
  /** PUT blocks the path's UDID by hand; DELETE takes it off the block list. */
  action: 'block' | 'unblock';
  sourceId: string;
  /** Upper-cased; undefined when malformed, refused once the source is known to be the caller's. */
  udid: string | undefined;
}

export function parseRequest({ event, params, pathParams }: Pick<RequestState, 'event' | 'params' | 'pathParams'>): BlocklistEntryRequest {
  parseManagementParams(params, { shape: {} });
  return { action: event.httpMethod === 'DELETE' ? 'unblock' : 'block', sourceId: pathParams.source_id ?? '', udid: udidParam(pathParams.udid) };
}
