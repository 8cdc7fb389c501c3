import * as z from 'zod/mini';
import type { RequestState } from '../../shared/http/request-state';
import type { AgentPriceSetting } from '../../shared/domain/agents/agent-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { agentChangeShape, agentCreateShape, agentIdShape, topUpShape } from '../../shared/validation/agent-fields';
import { validationError } from '../../shared/domain/errors';

type AgentsRequest =
  | { action: 'list' }
  | { action: 'show'; agentId: string }
  | { action: 'create'; name: string; contact: string; prices: AgentPriceSetting[] }
  | { action: 'topup'; agentId: string; amount: number }
  | { action: 'change'; agentId: string; name?: string | undefined; contact?: string | undefined; suspended?: boolean | undefined; prices?: AgentPriceSetting[] | undefined };

/**
 * The method and the parameters say what is asked: GET lists (or, naming an agent, shows it); POST creates an
 * agent, or naming one changes it (name, contact, prices, suspended) or, with `amount`, tops it up.
 */
export function parseRequest({ event, params }: Pick<RequestState, 'event' | 'params'>): AgentsRequest {
  const named = params.agent_id !== undefined && params.agent_id !== '';
  if (event.httpMethod === 'GET') {
    const p = parseManagementParams(params, { shape: { agent_id: z.optional(agentIdShape.agent_id) } });
    return p.agent_id ? { action: 'show', agentId: p.agent_id } : { action: 'list' };
  }
  if (named && Object.hasOwn(params, 'amount')) {
    const p = parseManagementParams(params, { shape: { ...agentIdShape, ...topUpShape } });
    return { action: 'topup', agentId: p.agent_id, amount: p.amount };
  }
  if (named) {
    const { agent_id, ...change } = parseManagementParams(params, { shape: { ...agentIdShape, ...agentChangeShape } });
    if (Object.values(change).every((v) => v === undefined)) throw validationError('empty_update', []);
    return { action: 'change', agentId: agent_id, ...change };
  }
  const p = parseManagementParams(params, { shape: agentCreateShape });
  return { action: 'create', name: p.name, contact: p.contact ?? '', prices: p.prices ?? [] };
}
