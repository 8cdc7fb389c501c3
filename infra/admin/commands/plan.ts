import * as z from 'zod/mini';
import { nowSeconds } from '../../../shared/clock';
import { getSubscription } from '../../../shared/db/repositories/subscription-repository';
import { PLAN_BOUNDS, planView, type Plan } from '../../../shared/records/plan';
import { changePlan, createPlan, plansOf, retirePlan } from '../../../shared/domain/subscriptions/plan-service';
import { extendSubscription, subscriptionSummary } from '../../../shared/domain/subscriptions/subscription-service';
import { DEFAULT_TENANT_ID } from '../../../shared/records/tenant';
import { requireUser } from '../../../shared/domain/users/user-service';
import { CliError, flagInt, flagText, parseFlags, type Command } from '../cli-types';

/** A whole number within the bounds a plan allows. */
const bounded = ({ min, max }: { min: number; max: number }) =>
  z.pipe(flagInt({ min }), z.number().check(z.refine((n) => n <= max, `must be at most ${max}`)));

const planFlags = {
  name: flagText(100),
  price: bounded(PLAN_BOUNDS.price),
  days: bounded(PLAN_BOUNDS.days),
  sources: bounded(PLAN_BOUNDS.sources),
  'apps-per-source': bounded(PLAN_BOUNDS.appsPerSource),
  'published-per-source': bounded(PLAN_BOUNDS.publishedPerSource),
};

/** What buyers see of a plan, and what only the operator sees: its tenant and whether it is still sold. */
const shown = (plan: Plan) => ({ ...planView(plan), tenant_id: plan.tenantId, retired: plan.retired });

/** A whole number of days that may be negative (shortening), within ten years either way. */
const signedDays = () =>
  z.pipe(
    z.pipe(z.string({ error: 'requires a whole number of days' }).check(z.regex(/^-?\d{1,5}$/, 'must be a whole number of days')), z.transform(Number)),
    z.number().check(z.refine((n) => n !== 0 && Math.abs(n) <= 3650, 'must be a non-zero number of days, at most 3650 either way')),
  );

export const planCommands: Record<string, Command> = {
  'plan create': async (flags) => {
    const f = parseFlags(flags, { tenant: z.optional(flagText()), ...planFlags });
    const plan = await createPlan(
      f.tenant ?? DEFAULT_TENANT_ID,
      { name: f.name, price: f.price, days: f.days, sources: f.sources, appsPerSource: f['apps-per-source'], publishedPerSource: f['published-per-source'] },
      nowSeconds(),
    );
    return shown(plan);
  },
  'plan list': async (flags) => {
    const f = parseFlags(flags, { tenant: z.optional(flagText()) });
    return { plans: (await plansOf(f.tenant ?? DEFAULT_TENANT_ID)).map(shown) };
  },
  /** Changes what the plan sells from now on; running subscriptions keep their limits until renewed. */
  'plan set': async (flags) => {
    const f = parseFlags(flags, {
      tenant: z.optional(flagText()),
      plan: flagText(),
      name: z.optional(planFlags.name),
      price: z.optional(planFlags.price),
      days: z.optional(planFlags.days),
      sources: z.optional(planFlags.sources),
      'apps-per-source': z.optional(planFlags['apps-per-source']),
      'published-per-source': z.optional(planFlags['published-per-source']),
    });
    const changes = {
      name: f.name,
      price: f.price,
      days: f.days,
      sources: f.sources,
      appsPerSource: f['apps-per-source'],
      publishedPerSource: f['published-per-source'],
    };
    if (Object.values(changes).every((v) => v === undefined)) {
      throw new CliError('nothing to set: pass --name, --price, --days, --sources, --apps-per-source or --published-per-source');
    }
    return shown(await changePlan(f.tenant ?? DEFAULT_TENANT_ID, f.plan, changes));
  },
  'plan retire': async (flags) => {
    const f = parseFlags(flags, { tenant: z.optional(flagText()), plan: flagText() });
    return shown(await retirePlan(f.tenant ?? DEFAULT_TENANT_ID, f.plan));
  },
  /** Moves the end of a user's subscription by --days (negative shortens it, and may end it at once). */
  'subscription extend': async (flags) => {
    const f = parseFlags(flags, { user: flagText(), days: signedDays() });
    await requireUser(f.user);
    const now = nowSeconds();
    const subscription = await extendSubscription(f.user, f.days, now);
    return { user_id: f.user, subscription: subscriptionSummary(subscription, now) };
  },
};

/** `user show`'s subscription part. */
export async function userSubscription(userId: string): Promise<Record<string, unknown> | null> {
  return subscriptionSummary(await getSubscription(userId), nowSeconds());
}
