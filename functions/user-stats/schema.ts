import type { RequestState } from '../../shared/http/request-state';
import type { StatsRequest } from '../../shared/domain/stats/stats-service';
import { agentIdParam } from '../../shared/validation/fields';
import { parseManagementParams } from '../../shared/validation/management-params';

export const statsShape = { agent: agentIdParam() };

/** Only `agent` (one of the caller's own agents); anything else is refused by name. */
export function parseRequest({ params }: Pick<RequestState, 'params'>): StatsRequest {
  return { agent: parseManagementParams(params, { shape: statsShape }).agent };
}
