import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { agentList, agentPricesParam, createdAgent } from '../../shared/contracts/agent-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    name: describe(z.optional(z.string()), 'POST (required): 1–64 characters'),
    contact: describe(z.optional(z.string()), 'POST: how to reach the agent, up to 200 characters'),
    prices: agentPricesParam,
  }),
  response: z.union([createdAgent, agentList]),
  notes:
    "POST creates an agent one level under you (at most three levels under the reseller of the operator: agent_depth_exceeded beyond) and answers its token once. The agent is a user of its own: balance (0 until you top it up), ledger, devices, sources and codes; it sees of yours only the prices it pays. GET lists your agents, never their tokens.",
};
