import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { agentDetail, agentPricesParam } from '../../shared/contracts/agent-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    name: describe(z.optional(z.string()), 'PATCH: 1–64 characters'),
    contact: describe(z.optional(z.string()), 'PATCH: up to 200 characters'),
    suspended: describe(z.optional(z.union([z.boolean(), z.string()])), 'PATCH: true/1 suspends the agent, false/0 lifts it'),
    prices: agentPricesParam,
  }),
  response: agentDetail,
  notes:
    "An id that is not one of your own agents (one level down) answers agent_not_found, code 40006, whoever's it is. Prices are all checked before any is written: one below what you pay refuses the request (agent_price_below_cost) and changes nothing.",
};
