/**
 * What the reseller's own view takes and answers (device list, balance, ledger), for the OpenAPI document;
 * the functions' schemas enforce the rules.
 */
import * as z from 'zod/mini';
import { DEVICE_TYPES, DEVICE_ZT, UDID_PATTERN } from '../records/device';
import { LEDGER_KINDS } from '../records/ledger-entry';
import { WARRANTY_TIERS } from '../domain/pricing/warranty';
import { tokenParam } from './device-contract';
import { describe } from './describe';

const limit = describe(z.optional(z.string()), 'Page size, 1–100 (default 20)');
const cursor = describe(z.optional(z.string().check(z.maxLength(512))), 'data.next of the previous page (opaque)');
const seconds = (what: string) => describe(z.optional(z.string()), `${what}, Unix seconds`);

export const tokenOnlyRequest = z.object({ token: tokenParam });

/** The device list's and the ledger's agent filter. */
const agentParam = describe(z.optional(z.string().check(z.maxLength(64))), "One of your agents' id (one level down): its devices or its ledger instead of yours; any other id answers agent_not_found (code 40006)");

export const deviceListRequest = z.object({
  token: tokenParam,
  limit,
  cursor,
  udid: describe(z.optional(z.string().check(z.regex(UDID_PATTERN))), 'Exactly this UDID (case-insensitive)'),
  zt: describe(z.optional(z.enum(DEVICE_ZT)), 'Certificate status'),
  enabled: describe(z.optional(z.enum(['1', '0', 'true', 'false', 'yes', 'no'])), 'Enabled (1) or disabled (0) devices'),
  pool: describe(z.optional(z.enum(['0', '1'])), '0 public, 1 private'),
  warranty: describe(z.optional(z.enum(WARRANTY_TIERS.map(String))), 'Warranty tier'),
  device_type: describe(z.optional(z.enum(DEVICE_TYPES)), 'Device class'),
  added_from: seconds('Added at or after'),
  added_to: seconds('Added at or before'),
  expires_before: seconds('Membership expiry (ytime) before; devices with an unknown expiry never match'),
  beizhu: describe(z.optional(z.string().check(z.maxLength(200))), 'The remark contains this text (case-insensitive)'),
  account_id: describe(z.optional(z.string()), 'Only the certificates on this Apple account of yours (`/api/user/apple-accounts`); another\'s is code 100 apple_account_not_found'),
  agent: agentParam,
});

const deviceListItem = z.object({
  id: z.number(),
  kid: z.string(),
  udid: z.string(),
  pname: z.string(),
  type: z.string(),
  shtype: z.number(),
  zt: z.string(),
  ytime: describe(z.number(), 'Membership expiry, Unix seconds; 0 = unknown'),
  enabled: z.boolean(),
  beizhu: z.string(),
  pool: z.number(),
  addtime: z.number(),
});

export const deviceListData = z.object({
  items: z.array(deviceListItem),
  next: describe(z.string(), 'Cursor of the next page; empty at the end'),
});

export const balanceData = z.object({
  balance: describe(z.number(), 'Cents'),
  currency: describe(z.string(), 'ISO 4217 code the site counts in'),
  prices: z.array(
    z.object({
      mode: z.enum(['instant', 'review']),
      warranty: z.number(),
      device_type: z.string(),
      price: describe(z.number(), 'Cents'),
      personal: describe(z.boolean(), 'Your personal price (lower than the site’s)'),
    }),
  ),
});

export const ledgerRequest = z.object({
  token: tokenParam,
  limit,
  cursor,
  kind: describe(z.optional(z.string()), `One or more of ${LEDGER_KINDS.join(', ')}, comma-separated`),
  from: seconds('At or after'),
  to: seconds('At or before'),
  agent: agentParam,
});

const ledgerEntry = z.object({
  seq: describe(z.number(), 'The entry’s number in your ledger: 1, 2, 3 …'),
  time: describe(z.number(), 'Unix seconds'),
  kind: z.enum(LEDGER_KINDS),
  amount: describe(z.number(), 'Signed cents: negative took from the balance; 0 for an activation code'),
  balance_after: describe(z.number(), 'The balance this entry left, cents'),
  hold_id: z.optional(z.string()),
  kid: z.optional(z.string()),
  reservation_id: z.optional(z.string()),
  udid: z.optional(z.string()),
  mode: z.optional(z.enum(['instant', 'review'])),
  tier: z.optional(z.number()),
  code: z.optional(z.string()),
  plan: z.optional(z.string()),
  reason: describe(z.optional(z.string()), 'Why a refund happened'),
  note: z.optional(z.string()),
  agent_id: describe(z.optional(z.string()), "An agent's add: the agent that added (every level's entries); a top-up: the agent topped up"),
  level: describe(z.optional(z.number()), "An agent's add: this entry's own level in the chain (0 the reseller of the operator, 1–3 agents)"),
});

export const ledgerData = z.object({
  items: z.array(ledgerEntry),
  next: describe(z.string(), 'Cursor of the next page; empty at the end'),
});
