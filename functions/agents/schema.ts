import type { RequestState } from '../../shared/http/request-state';
import type { AgentPriceSetting } from '../../shared/domain/agents/agent-service';
import { parseManagementParams } from '../../shared/validation/management-params';
import { agentIdParam } from '../../shared/validation/fields';
import { agentChangeShape, agentCreateShape, agentIdShape, topUpShape } from '../../shared/validation/agent-fields';
import { parseStorefrontChange, storefrontParam, type StorefrontChange } from '../../shared/validation/storefront-fields';

type AgentsRequest =
  | { action: 'list' }
  | { action: 'show'; agentId: string }
  | { action: 'create'; name: string; contact: string; prices: AgentPriceSetting[]; lowBalance?: number | undefined }
  | { action: 'topup'; agentId: string; amount: number }
  /** `agentId` undefined: the caller's own storefront (an agent's). An empty change reads it. */
  | { action: 'storefront'; agentId: string | undefined; change: StorefrontChange }
  | { action: 'change'; agentId: string; name?: string | undefined; contact?: string | undefined; suspended?: boolean | undefined; prices?: AgentPriceSetting[] | undefined; lowBalance?: number | undefined };

/**
 * What the request carries says what it asks: nothing, the list; `name` (without `agent_id`), a new agent;
 * `agent_id` alone, that agent; with `amount`, a top-up of it; with `name`, `contact`, `prices` or `suspended`,
 * a change of it (`low_balance`: the threshold below which you are sent `agent.balance_low` about it).
 * `storefront` (with `agent_id`: that agent's; without: the caller's own) reads the storefront when empty, else
 * changes it.
 */
export function parseRequest({ params }: Pick<RequestState, 'params'>): AgentsRequest {
  const named = params.agent_id !== undefined && params.agent_id !== '';
  if (Object.hasOwn(params, 'storefront')) {
    const p = parseManagementParams(params, { shape: { agent_id: agentIdParam(), storefront: storefrontParam() } });
    return { action: 'storefront', agentId: p.agent_id, change: parseStorefrontChange(p.storefront) };
  }
  if (!named) {
    if (Object.keys(params).length === 0) return { action: 'list' };
    const p = parseManagementParams(params, { shape: agentCreateShape });
    return { action: 'create', name: p.name, contact: p.contact ?? '', prices: p.prices ?? [], lowBalance: p.low_balance };
  }
  if (Object.hasOwn(params, 'amount')) {
    const p = parseManagementParams(params, { shape: { ...agentIdShape, ...topUpShape } });
    return { action: 'topup', agentId: p.agent_id, amount: p.amount };
  }
  const { agent_id, low_balance, ...change } = parseManagementParams(params, { shape: { ...agentIdShape, ...agentChangeShape } });
  if (low_balance === undefined && Object.values(change).every((v) => v === undefined)) return { action: 'show', agentId: agent_id };
  return { action: 'change', agentId: agent_id, ...change, lowBalance: low_balance };
}
