import type { RequestState } from '../../shared/http/request-state';
import { parseAddRequest, type AddParams } from '../../shared/validation/add-params';

/** `/api/adddevice`: the v2 parameters, always in instant mode. */
export function parseRequest({ params }: Pick<RequestState, 'params'>): AddParams {
  return parseAddRequest(params, 'instant');
}
