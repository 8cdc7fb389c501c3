import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { subscriptionData } from '../../shared/contracts/subscription-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';
import { subscribeShape } from './schema';

export const contract: FunctionContract = {
  request: z.object({
    plan: describe(subscribeShape.plan, 'POST: the plan to buy (a plan_id from GET); with trial it must be the trial plan when given'),
    trial: describe(subscribeShape.trial, 'POST: true starts the trial (once per user, while no subscription runs)'),
  }),
  response: subscriptionData,
  notes:
    "GET: the caller's subscription on this site, its limits and usage, whether the trial is available, and the plans on sale. POST {plan}: buys the plan from the balance in one transaction (40003 balance_too_low, nothing changed, when the balance does not cover it). Buying the running plan extends expires_at by its days; buying another plan starts it now and gives up the unused time of the old one. POST {trial: true}: starts the trial (40003 trial_unavailable otherwise). A retired or unknown plan is 40003 plan_unavailable.",
};
