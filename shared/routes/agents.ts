/**
 * Agents: a reseller's own resellers, three levels deep at most (shared/domain/agents). One function serves
 * them all, told apart by method and `agent_id`: every route costs the stack a function and its role, log group,
 * alarm and methods, and CloudFormation allows a stack 500 resources.
 */
import type { RouteDefinition } from './definitions';

export const agentsRoute = {
  function: 'agents',
  methods: ['POST', 'PATCH', 'GET'],
  path: '/api/user/agents',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description:
    "The caller's agents: create one with its prices (POST; its token is answered once), top one up from the caller's balance (POST with agent_id and amount), change one (PATCH with agent_id), list them or show one with its prices (GET, with agent_id)",
  data: { read: ['prices'], write: ['users', 'tokens', 'prices', 'ledger'] },
} as const satisfies RouteDefinition;
