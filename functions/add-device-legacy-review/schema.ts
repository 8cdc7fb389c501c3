import type { AddRequest } from '../../shared/domain/add-device/add-request';
import type { RequestState } from '../../shared/http/request-state';
import { parseAddRequest } from '../add-device/add-params';

/** `/api/addyydevice`: the v2 parameters, always in review (reservation) mode. */
export function parseRequest({ params }: Pick<RequestState, 'params'>): AddRequest {
  return parseAddRequest(params, 'review');
}
