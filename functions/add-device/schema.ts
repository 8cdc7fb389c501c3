import type { RequestState } from '../../shared/http/request-state';
import { parseAddRequest, type AddParams } from '../../shared/validation/add-params';

/** `/api/adddevice/v2`: `mode`/`add_mode` picks instant or review. */
export function parseRequest({ params }: Pick<RequestState, 'params'>): AddParams {
  return parseAddRequest(params);
}
