import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import { queryValues } from '../../shared/http/request-url';
import { udidParam } from '../../shared/validation/fields';
import { parseManagementParams } from '../../shared/validation/management-params';

interface DeviceUrlRequest {
  /** GET hands out the device's feed URL (issuing its key once); DELETE revokes it. */
  action: 'get' | 'revoke';
  sourceId: string;
  /** Upper-cased; undefined when malformed, refused once the source is known to be the caller's. */
  udid: string | undefined;
}


export function parseRequest({ event, params, pathParams }: Pick<RequestState, 'event' | 'params' | 'pathParams'>): DeviceUrlRequest {
  parseManagementParams(params, { shape: { udid: z.string() } });
  // A repeated udid names no one device: malformed, like any other unusable value.
  const repeated = queryValues(event, 'udid').length > 1;
  return { action: event.httpMethod === 'DELETE' ? 'revoke' : 'get', sourceId: pathParams.source_id ?? '', udid: repeated ? undefined : udidParam(params.udid) };
}
