import type { RequestState } from '../../shared/http/request-state';
import { appIdFromPath } from '../../shared/validation/app-fields';
import { parseSourceRequest } from '../../shared/validation/echoed-source';

/** The source and app are in the path; nothing else is taken (the source may be echoed). */
export function parseRequest(state: Pick<RequestState, 'params' | 'pathParams'>) {
  const appId = appIdFromPath(state.pathParams.app_id);
  return { ...parseSourceRequest(state), appId };
}
