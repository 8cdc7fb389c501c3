import type { AddRequest } from '../../shared/domain/add-device/add-request';
import type { RequestState } from '../../shared/http/request-state';
import { parseAddRequest } from './add-params';

/** `/api/adddevice/v2`: `mode`/`add_mode` picks instant or review. */
export function parseRequest({ params }: Pick<RequestState, 'params'>): AddRequest {
  return parseAddRequest(params);
}
