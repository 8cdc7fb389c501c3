/**
 * The operator's view of agents (the CLI): any user's agents, any agent with its prices, and suspension, without
 * a parent's token. Kept apart from the API's agent service so the agents function carries none of it.
 */
import { listAgentsOf, updateAgent as storeAgentChange } from '../../db/repositories/user-repository';
import { parentOf, type User } from '../../records/user';
import { RuleError } from '../errors';
import { requireUser } from '../users/user-service';
import { agentView, priceTable } from './agent-service';
import { getStorefrontOwner } from '../../db/repositories/storefront-repository';
import { activate } from './storefront-service';

const notAnAgent = (userId: string) => new RuleError('agent_not_found', `${userId} is not an agent`);

/** The operator's view of an agent: what its parent sees, and who its parent and upline are. */
function operatorView(agent: User) {
  return { ...agentView(agent), tenant_id: agent.tenantId, parent_id: parentOf(agent) ?? null, upline: agent.upline };
}

/** A user's agents (one level down), oldest first. */
export async function operatorListAgents(parentId: string) {
  const parent = await requireUser(parentId);
  return { user_id: parent.userId, items: (await listAgentsOf(parent.userId)).filter((a) => a.tenantId === parent.tenantId).map(operatorView) };
}

/** One agent with its prices (what it pays and what its parent pays, per mode, tier and class). */
export async function operatorShowAgent(agentId: string) {
  const agent = await requireUser(agentId);
  if (!parentOf(agent)) throw notAnAgent(agentId);
  return { ...operatorView(agent), prices: await priceTable(agent) };
}

/** Suspends an agent (its adds, and those of every agent under it, are refused) or lifts it. */
export async function operatorSuspendAgent(agentId: string, suspended: boolean) {
  const agent = await requireUser(agentId);
  const parentId = parentOf(agent);
  if (!parentId) throw notAnAgent(agentId);
  if (!(await storeAgentChange(agentId, parentId, { suspended }))) throw notAnAgent(agentId);
  return operatorView({ ...agent, suspended });
}

/**
 * Serves an agent's claimed storefront domain on the operator's word, without its DNS proof (as the operator
 * maps a tenant's domain): refused when the agent claimed none, or another site or storefront holds it.
 */
export async function operatorApproveDomain(agentId: string, now: number) {
  const found = await getStorefrontOwner(agentId);
  if (!found || !parentOf(found.user)) throw notAnAgent(agentId);
  const { domain, domainState } = found.storefront;
  if (!domain) throw new RuleError('storefront_no_domain', `${agentId} claimed no domain`);
  if (domainState === 'pending') {
    try {
      await activate(found, now);
    } catch {
      throw new RuleError('storefront_domain_taken', `${domain} already serves a site or another storefront`);
    }
  }
  return { agent_id: agentId, domain, domain_state: 'active' };
}
