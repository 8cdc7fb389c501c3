import type { RequestState } from '../../shared/http/request-state';
import { parseManagementParams } from '../../shared/validation/management-params';
import { topUpShape } from '../../shared/validation/agent-fields';

export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>): { agentId: string; amount: number } {
  const p = parseManagementParams(params, { shape: topUpShape });
  return { agentId: pathParams.agent_id ?? '', amount: p.amount };
}
