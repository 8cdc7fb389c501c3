import type { RequestState } from '../../shared/http/request-state';
import { parseListParams } from '../../shared/validation/list-params';

/** The balance takes nothing but the token; anything else is refused by name. */
export function parseRequest({ params }: Pick<RequestState, 'params'>): void {
  parseListParams(params, {});
}
