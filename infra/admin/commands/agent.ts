import * as z from 'zod/mini';
import { operatorApproveDomain, operatorListAgents, operatorShowAgent, operatorSuspendAgent } from '../../../shared/domain/agents/agent-operator';
import { flagText, parseFlags, type Command } from '../cli-types';
import { nowSeconds } from '../../../shared/clock';

/** Agents (resellers of resellers) as the operator sees them: a user's agents, one agent, suspension. */
export const agentCommands: Record<string, Command> = {
  'agent list': async (flags) => operatorListAgents(parseFlags(flags, { user: flagText() }).user),
  'agent show': async (flags) => operatorShowAgent(parseFlags(flags, { agent: flagText() }).agent),
  /** `--lift` ends a suspension. */
  'agent suspend': async (flags) => {
    const f = parseFlags(flags, { agent: flagText(), lift: z.optional(z.literal(true, { error: 'takes no value' })) });
    return operatorSuspendAgent(f.agent, f.lift !== true);
  },
  /** Serves the agent's claimed storefront domain without its DNS proof (the operator's word, as for a tenant's domain). */
  'agent domain': async (flags) => operatorApproveDomain(parseFlags(flags, { agent: flagText() }).agent, nowSeconds()),
};
