/** What the routes of a reseller's own Apple accounts answer, for the OpenAPI document. */
import * as z from 'zod/mini';
import { ACCOUNT_ALERTS, ACCOUNT_STATUSES, RENEWAL_STATES } from '../records/account';
import { describe } from './describe';

const slots = describe(
  z.object({ used: z.number(), free: z.number(), limit: describe(z.number(), 'Slots of a membership year (Apple: 100)') }),
  'Apple counts devices per class and membership year; `used` + `free` = `limit`',
);

const renewal = describe(
  z.nullable(
    z.object({
      renewal_id: z.string(),
      state: describe(z.enum(RENEWAL_STATES), 'running: devices are being given new profiles; done; failed (see error)'),
      done: describe(z.number(), 'Devices finished so far'),
      total: describe(z.number(), 'Devices to renew (recounted as the renewal goes: adds made meanwhile count)'),
      skipped: describe(z.number(), 'Of done, devices Apple made no new profile for (they keep the previous certificate until it expires)'),
      started_at: z.number(),
      finished_at: z.nullable(z.number()),
      error: describe(z.optional(z.string()), 'Why a failed renewal ended'),
    }),
  ),
  'The latest certificate renewal (null before the first): progress while running, then how it ended (also sent as an account.renewal event)',
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
  membership_renews_at: describe(z.nullable(z.number()), "Unix seconds: when the membership renews and Apple lets the team reset its device list. Apple's API does not say it: null (unknown) until the owner gives it (on connecting or with action set_membership)"),
  certificate: describe(z.object({ id: z.string(), expires_at: z.number() }), 'The distribution certificate the service made and keeps (its private key never leaves the service)'),
  issuer_id: z.string(),
  key_id: z.string(),
  alerts: describe(z.array(z.enum(ACCOUNT_ALERTS)), 'What the hourly account check found (each also sent once as an account.alert event)'),
  connected: describe(z.boolean(), 'Connected with an API key through this API (false: added by the operator)'),
  created_at: z.number(),
  renewal,
});

export const ownerAccountList = z.object({ accounts: z.array(ownerAccount) });
