/** Agents: a reseller's own resellers, three levels deep at most (shared/domain/agents). */
import type { RouteDefinition } from './definitions';

export const agentsRoute = {
  function: 'agents',
  methods: ['POST', 'GET'],
  path: '/api/user/agents',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "Create an agent under the caller, with its prices (POST; its token is answered once), or list the caller's agents (GET)",
  data: { read: ['prices'], write: ['users', 'tokens', 'prices'] },
} as const satisfies RouteDefinition;

export const agentRoute = {
  function: 'agent',
  methods: ['PATCH', 'GET'],
  path: '/api/user/agents/{agent_id}',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "One of the caller's agents with the prices it pays (GET); change its name, contact, prices or suspension (PATCH)",
  data: { read: ['prices'], write: ['users', 'prices'] },
} as const satisfies RouteDefinition;

export const agentTopUpRoute = {
  function: 'agent-topup',
  methods: ['POST'],
  path: '/api/user/agents/{agent_id}/topup',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "Move money from the caller's balance to one of its agents' (both ledgers, one transaction)",
  data: { write: ['users', 'ledger'] },
} as const satisfies RouteDefinition;
