/**
 * Agents: a reseller's own resellers, three levels deep at most (shared/domain/agents). One function and one
 * method serve them all, told apart by what the request carries (`name`, `agent_id`, `amount`): every route
 * costs the stack a function with its role, policy, permission, alarm and resource, and every method
 * one more, and the stack keeps its headroom under CloudFormation's 500 resources
 * (test/infra/stack-template.test.ts).
 */
import type { RouteDefinition } from './definitions';

export const agentsRoute = {
  function: 'agents',
  methods: ['POST'],
  path: '/api/user/agents',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "The caller's agents: list; create (name; token answered once); show one (agent_id); change one (agent_id and changes); top one up (agent_id and amount); a storefront (storefront, with agent_id or your own)",
  // counters: the chain's price read can take the month's add counts (volume bands); this route asks for none.
  data: { read: ['prices', 'counters'], write: ['users', 'tokens', 'prices', 'ledger', 'tenantHosts'] },
} as const satisfies RouteDefinition;
