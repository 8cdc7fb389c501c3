/** What the subscription route and the owner's source routes take and answer, for the OpenAPI document. */
import * as z from 'zod/mini';
import { describe } from './describe';
import { appDetailData, sourcePresentationData } from './source-contract';

const limits = z.object({ sources: z.number(), apps_per_source: z.number(), published_per_source: z.number() });

export const planData = z.extend(limits, {
  plan_id: z.string(),
  name: z.string(),
  price: describe(z.number(), 'Cents per period, taken from the balance'),
  days: describe(z.number(), 'Days one purchase adds'),
});

export const subscriptionData = z.object({
  status: describe(z.enum(['none', 'active', 'expired']), 'active while now < expires_at'),
  plan: z.nullable(z.object({ plan_id: z.string(), name: z.string() })),
  is_trial: z.boolean(),
  expires_at: describe(z.nullable(z.number()), 'Unix seconds'),
  feeds_suspend_at: describe(z.nullable(z.number()), 'Unix seconds: after the subscription ends, feeds keep serving until then, then show as suspended'),
  limits: z.nullable(limits),
  usage: z.object({ sources: describe(z.number(), 'Sources created through the API that count against the plan') }),
  trial_available: z.boolean(),
  trial: describe(z.nullable(z.object({ plan_id: z.string(), days: z.number() })), 'The trial this site offers, if any'),
  plans: describe(z.array(planData), 'The plans on sale on this site'),
  charged: describe(z.optional(z.number()), 'POST: cents taken from the balance by this purchase'),
});

export const sourceDetailData = z.object({
  source_id: z.string(),
  name: z.string(),
  source_url: describe(z.string(), '/api/rjy/<source_id>/appstore'),
  message: z.string(),
  identifier: z.string(),
  source_icon: z.string(),
  pay_url: z.string(),
  encrypt_enabled: z.union([z.literal(0), z.literal(1)]),
  open_black: z.union([z.literal(0), z.literal(1)]),
  open_black2: z.union([z.literal(0), z.literal(1)]),
  health_alert: z.record(z.string(), z.unknown()),
  ...sourcePresentationData,
  app_count: describe(z.number(), 'Drafts and published apps'),
  draft_count: z.number(),
  published_count: z.number(),
  created_at: describe(z.number(), 'Unix seconds'),
  updated_at: describe(z.number(), 'Unix seconds'),
});

const nextCursor = describe(z.nullable(z.string()), 'Pass as cursor for the next page; null on the last page');

export const sourceListData = z.object({ sources: z.array(sourceDetailData), next_cursor: nextCursor });

export const appListData = z.object({ apps: z.array(appDetailData), next_cursor: nextCursor });

export const deletedSourceData = z.object({
  source_id: z.string(),
  deleted: z.literal(true),
  purge: describe(z.enum(['done', 'pending']), 'pending: its apps, codes, block list and health records are being removed in the background; nothing of the source is visible meanwhile'),
});

export const deletedAppData = z.object({ source_id: z.string(), id: z.number(), deleted: z.literal(true) });
