/** What the agent routes take and answer, for the OpenAPI document. */
import * as z from 'zod/mini';
import { ACCOUNT_MODES } from '../records/account';
import { PRICED_CLASSES } from '../domain/pricing/prices';
import { describe } from './describe';

const priceSetting = z.object({
  mode: z.enum(ACCOUNT_MODES),
  warranty: describe(z.union([z.number(), z.string()]), 'Warranty tier 0 1 2 3 4 6 (review: 0–3)'),
  device_type: z.enum(PRICED_CLASSES),
  price: describe(z.union([z.number(), z.string()]), 'Cents the agent pays per add; at least what you pay yourself (else agent_price_below_cost)'),
});

export const agentPricesParam = describe(z.optional(z.union([z.array(priceSetting), z.string()])), 'A JSON array of {mode, warranty, device_type, price}; an item without a price costs the agent what it costs you');

const agent = z.object({
  agent_id: z.string(),
  name: z.string(),
  contact: z.string(),
  level: describe(z.number(), 'Levels under the reseller of the operator: 1–3'),
  suspended: describe(z.boolean(), 'A suspended agent cannot add (nothing is charged anywhere) nor create or top up agents'),
  balance: describe(z.number(), 'Cents'),
});

const agentPrice = z.object({
  mode: z.enum(ACCOUNT_MODES),
  warranty: z.number(),
  device_type: z.enum(PRICED_CLASSES),
  price: describe(z.number(), 'Cents the agent pays per add now'),
  cost: describe(z.number(), 'Cents you pay for the same add (the floor of its price)'),
});

export const agentDetail = z.extend(agent, { prices: z.array(agentPrice) });

export const createdAgent = z.extend(agentDetail, { token: describe(z.string(), "The agent's API token: shown in this answer only") });

export const agentList = z.object({ items: describe(z.array(agent), 'Your agents (one level down), oldest first') });

export const topUpData = z.object({
  balance: describe(z.number(), 'Your balance after the top-up, cents'),
  agent: z.object({ agent_id: z.string(), balance: describe(z.number(), "The agent's balance after it, cents") }),
});
