import type { RequestState } from '../../shared/http/request-state';
import type { AgentPriceSetting } from '../../shared/domain/agents/agent-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { agentCreateShape } from '../../shared/validation/agent-fields';

type AgentsRequest = { action: 'list' } | { action: 'create'; name: string; contact: string; prices: AgentPriceSetting[] };

export function parseRequest({ event, params }: Pick<RequestState, 'event' | 'params'>): AgentsRequest {
  if (event.httpMethod === 'GET') {
    parseManagementParams(params, { shape: {} });
    return { action: 'list' };
  }
  const p = parseManagementParams(params, { shape: agentCreateShape });
  return { action: 'create', name: p.name, contact: p.contact ?? '', prices: p.prices ?? [] };
}
