import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { agentDetail, agentList, agentPricesParam, createdAgent, storefrontData, storefrontParamContract, topUpData } from '../../shared/contracts/agent-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({
    agent_id: describe(z.optional(z.string()), 'Alone: show this agent with its prices; with amount: top it up; with name, contact, prices or suspended: change it. Without it: create an agent (name) or, sending nothing, list them'),
    name: describe(z.optional(z.string()), 'Creating (required) or changing: 1–64 characters'),
    contact: describe(z.optional(z.string()), 'Creating or changing: how to reach the agent, up to 200 characters'),
    prices: agentPricesParam,
    suspended: describe(z.optional(z.union([z.boolean(), z.string()])), 'Changing: true/1 suspends the agent (and every agent under it), false/0 lifts it'),
    storefront: storefrontParamContract,
    low_balance: describe(z.optional(z.union([z.number(), z.string()])), 'Creating or changing: cents; agent.balance_low is sent to you once each time the agent’s balance falls below it (0 turns it off)'),
    amount: describe(z.optional(z.union([z.number(), z.string()])), 'POST with agent_id: cents to move from your balance to the agent’s, 1–1000000000'),
  }),
  response: z.union([createdAgent, topUpData, agentDetail, agentList, storefrontData]),
  notes:
    "One method, and what you send says what you ask. Sending nothing lists your agents (one level down; never a token). name without agent_id creates an agent one level under you (at most three levels under the reseller of the operator: agent_depth_exceeded beyond) and answers its token once; the agent is a user of its own (balance 0 until you top it up, ledger, devices, sources, codes) and sees of yours only the prices it pays. agent_id with amount moves money from your balance to its, both ledger entries in one transaction (topup_not_covered, nothing moved, when your balance does not cover it). agent_id with name, contact, prices or suspended changes them, contact, prices or suspension; prices are all checked before any is written, and one below what you pay yourself refuses the request (agent_price_below_cost). agent_id alone shows that agent with what it pays and what you pay per mode, tier and class. An agent_id that is not one of your own agents answers agent_not_found, code 40006, whoever's it is. " +
    "storefront (an object; {} reads it) is an agent's storefront: its name, logo, colours, notice, contact, buy link and own domain, which its customer page (/api/customer?store=AGENT_ID on this site, or /api/customer on its proven domain), its sources' install pages and feeds, and its UDID profiles show instead of this site's brand, in the customer's language, never naming anyone above the agent. With agent_id it is that agent's (its parent's view); without, the caller's own (an agent's; a reseller of the operator gets storefront_not_agent). A refused field names itself in data.fields with a message saying what it must be (invalid_value, HTTP 400). A domain is claimed pending with a DNS TXT record to publish (domain_proof); verify_domain true checks it and, proven, maps the domain to the agent (storefront_domain_taken when any site or storefront holds it, storefront_domain_unverified while the record is missing). A suspended agent cannot change its own storefront (its parent can); its pages keep its brand and say it takes no new orders.",
};
