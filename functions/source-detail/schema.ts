import type { RequestState } from '../../shared/http/request-state';
import { parseSourceRequest } from '../../shared/validation/echoed-source';

/** GET reads the source back, DELETE deletes it; both name the source in the path and take nothing else. */
export function parseRequest(state: Pick<RequestState, 'event' | 'params' | 'pathParams'>) {
  const { sourceId } = parseSourceRequest(state);
  return { action: state.event.httpMethod === 'DELETE' ? ('delete' as const) : ('read' as const), sourceId };
}
