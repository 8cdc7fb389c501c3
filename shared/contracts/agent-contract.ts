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
  bands: describe(
    z.optional(z.array(z.object({ from: z.union([z.number(), z.string()]), price: z.union([z.number(), z.string()]) }))),
    'Volume bands, at most 5: from the from-th add of the UTC month (2 or more, each after the one before: else agent_band_order) the agent pays price (each below the price before it: else agent_band_not_lower; none below what you pay: else agent_price_below_cost). The month counts the agent’s adds paid from the balance and those of its own agents, less refunded ones',
  ),
});

export const agentPricesParam = describe(z.optional(z.union([z.array(priceSetting), z.string()])), 'A JSON array of {mode, warranty, device_type, price, bands?}; an item without a price costs the agent what it costs you');

const agent = z.object({
  agent_id: z.string(),
  name: z.string(),
  contact: z.string(),
  level: describe(z.number(), 'Levels under the reseller of the operator: 1–3'),
  suspended: describe(z.boolean(), 'A suspended agent cannot add (nothing is charged anywhere) nor create or top up agents'),
  balance: describe(z.number(), 'Cents'),
  low_balance: describe(z.number(), 'Cents: your low-balance threshold for this agent (0 = off); agent.balance_low is sent to you once each time its balance falls below it'),
  balance_low: describe(z.boolean(), 'Whether its balance is below that threshold now'),
});

const agentPrice = z.object({
  mode: z.enum(ACCOUNT_MODES),
  warranty: z.number(),
  device_type: z.enum(PRICED_CLASSES),
  price: describe(z.number(), 'Cents the agent pays per add now'),
  cost: describe(z.number(), 'Cents you pay for the same add before any band of yours (the floor of its price and of its bands)'),
  bands: describe(z.array(z.object({ from: z.number(), price: z.number() })), 'The volume bands you set on this price (empty: none)'),
});

export const agentDetail = z.extend(agent, { prices: z.array(agentPrice) });

export const createdAgent = z.extend(agentDetail, { token: describe(z.string(), "The agent's API token: shown in this answer only") });

export const agentList = z.object({ items: describe(z.array(agent), 'Your agents (one level down), oldest first') });

export const topUpData = z.object({
  balance: describe(z.number(), 'Your balance after the top-up, cents'),
  agent: z.object({ agent_id: z.string(), balance: describe(z.number(), "The agent's balance after it, cents") }),
});

const storefrontFields = {
  name: describe(z.optional(z.string()), "The shop's name on its pages and UDID profile, up to 64 characters ('' = the agent's own name)"),
  logo_url: describe(z.optional(z.string()), "An https:// image URL ('' clears it)"),
  primary_color: describe(z.optional(z.string()), "#RRGGBB of the buttons, dark enough for white text (contrast at least 4.5:1, else storefront_color_contrast); '' = the default blue"),
  header_color: describe(z.optional(z.string()), "#RRGGBB of the band behind the shop's name (its text is black or white, whichever reads better); '' = none"),
  notice: describe(z.optional(z.string()), 'Shown under the name, up to 500 characters'),
  contact: describe(z.optional(z.string()), 'How customers reach the shop, up to 200 characters'),
  buy_url: describe(z.optional(z.string()), "An https:// link where customers buy ('' clears it)"),
  domain: describe(z.optional(z.string()), "The shop's own host name (shop.example.com); a new one is pending until proven by a DNS TXT record (domain_proof) or approved by the operator; '' releases it"),
};

export const storefrontParamContract = describe(
  z.optional(z.union([z.object({ ...storefrontFields, verify_domain: describe(z.optional(z.union([z.boolean(), z.string()])), 'true: check the claimed domain\'s TXT record now and, proven, serve the storefront on it') }), z.string()])),
  'An object (or its JSON text) of the storefront fields to change; {} reads it. With agent_id: that agent\'s storefront (you are its parent); without: your own (you are an agent)',
);

export const storefrontData = z.object({
  agent_id: z.string(),
  name: z.string(),
  logo_url: z.string(),
  primary_color: z.string(),
  header_color: z.string(),
  notice: z.string(),
  contact: z.string(),
  buy_url: z.string(),
  domain: z.string(),
  domain_state: describe(z.enum(['none', 'pending', 'active']), 'none: no domain; pending: claimed, waiting for its proof; active: the storefront is served on it'),
  domain_proof: describe(z.optional(z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() })), 'While pending: the DNS record that proves the domain'),
  pages: z.object({
    customer_page: describe(z.string(), "The storefront's customer page on this site's domain"),
    domain_page: describe(z.optional(z.string()), 'The same page on the proven domain'),
  }),
});
