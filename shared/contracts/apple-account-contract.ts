/** What the routes of a reseller's own Apple accounts answer, for the OpenAPI document. */
import * as z from 'zod/mini';
import { ACCOUNT_ALERTS, ACCOUNT_STATUSES } from '../records/account';
import { describe } from './describe';

const slots = describe(
  z.object({ used: z.number(), free: z.number(), limit: describe(z.number(), 'Slots of a membership year (Apple: 100)') }),
  'Apple counts devices per class and membership year; `used` + `free` = `limit`',
);

export const ownerAccount = z.object({
  account_id: z.string(),
  team_id: z.string(),
  state: describe(z.enum(ACCOUNT_STATUSES), 'active; failing: Apple refuses its API key (rotate it); revoked: Apple revoked its certificate (renew it); retired'),
  selling: describe(z.boolean(), 'Adds with type=1 may use it: active and not paused'),
  paused: z.boolean(),
  mode: z.enum(['instant', 'review']),
  weight: z.number(),
  tiers: z.array(z.number()),
  slots: z.object({ iphone: slots, ipad: slots, mac: slots }),
  membership_renews_at: describe(z.number(), 'Unix seconds: when the membership renews and Apple lets the team reset its device list'),
  certificate: describe(z.object({ id: z.string(), expires_at: z.number() }), 'The distribution certificate the service made and keeps (its private key never leaves the service)'),
  issuer_id: z.string(),
  key_id: z.string(),
  alerts: describe(z.array(z.enum(ACCOUNT_ALERTS)), 'What the hourly account check found (each also sent once as an account.alert event)'),
  connected: describe(z.boolean(), 'Connected with an API key through this API (false: added by the operator)'),
  created_at: z.number(),
});

export const ownerAccountList = z.object({ accounts: z.array(ownerAccount) });
export const renewedAccount = z.object({ account: ownerAccount, renewed_devices: describe(z.number(), 'Certificates given a new profile and .p12 for the new certificate') });
