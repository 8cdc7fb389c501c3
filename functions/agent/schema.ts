import type { RequestState } from '../../shared/http/request-state';
import type { AgentPriceSetting } from '../../shared/domain/agents/agent-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { agentChangeShape } from '../../shared/validation/agent-fields';

type AgentRequest =
  | { action: 'show'; agentId: string }
  | { action: 'change'; agentId: string; name?: string | undefined; contact?: string | undefined; suspended?: boolean | undefined; prices?: AgentPriceSetting[] | undefined };

export function parseRequest({ event, params, pathParams }: Pick<RequestState, 'event' | 'params' | 'pathParams'>): AgentRequest {
  const agentId = pathParams.agent_id ?? '';
  if (event.httpMethod === 'GET') {
    parseManagementParams(params, { shape: {} });
    return { action: 'show', agentId };
  }
  const p = parseManagementParams(params, { shape: agentChangeShape, requireOne: true });
  return { action: 'change', agentId, name: p.name, contact: p.contact, suspended: p.suspended, prices: p.prices };
}
