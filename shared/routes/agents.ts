/**
 * Agents: a reseller's own resellers, three levels deep at most (shared/domain/agents). One function and two
 * methods serve them all, told apart by `agent_id` and `amount`: every route costs the stack a function with its
 * role, policy, log group, permission, alarm, resource and a method each, and the stack keeps its headroom under
 * CloudFormation's 500 resources (test/infra/stack-template.test.ts).
 */
import type { RouteDefinition } from './definitions';

export const agentsRoute = {
  function: 'agents',
  methods: ['POST', 'GET'],
  path: '/api/user/agents',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "The caller's agents: create (POST; token answered once), change (POST with agent_id), top up (POST with agent_id and amount), list or show one (GET)",
  data: { read: ['prices'], write: ['users', 'tokens', 'prices', 'ledger'] },
} as const satisfies RouteDefinition;
