/**
 * Reading and changing a user's subscription: the tenant's trial (once per user), a purchase or renewal paid
 * from the balance, and the operator's extension. Every change is one transaction conditioned on the version
 * of the subscription it was computed from; a purchase also debits the balance (conditioned on covering the
 * price) and records itself in it. So N identical purchases racing with money for one charge once and extend
 * once, and a balance never goes negative.
 *
 * Storage is the wired stores (`subscription-store.ts`, the ledger's, the transactions'): DynamoDB in every
 * function, in memory in the rule tests.
 */
import type { TransactionPart } from '../../db/transactions';
import { store } from '../stores';
import { DomainError, RuleError } from '../errors';
import { writeWithLedger } from '../ledger/ledger';
import type { Tenant } from '../../records/tenant';
import type { TokenOwner } from '../../records/user';
import { DAY_SECONDS, planView, type Plan } from '../../records/plan';
import { isActive, type Subscription, type SubscriptionRecord } from '../../records/subscription';

const MAX_ATTEMPTS = 5;

const planUnavailable = () => new DomainError('conflict', 'plan_unavailable');
const trialUnavailable = () => new DomainError('conflict', 'trial_unavailable');

/**
 * Writes a subscription change: a free one (the trial) as it is; a paid one with the balance debit and its
 * `subscription` ledger entry in the same transaction (shared/domain/ledger), so the purchase, the debit and
 * the entry happen together or not at all.
 */
async function writeChange(userId: string, change: Change, own: TransactionPart[]): Promise<'ok' | 'short' | 'raced'> {
  if (change.price <= 0) return (await store('transactions').write(own, { conflicts: 'report' })).ok ? 'ok' : 'raced';
  const outcome = await writeWithLedger({
    userId,
    with: own,
    change: { amount: -change.price, kind: 'subscription', ref: { plan: change.record.planId, note: change.record.kind }, at: change.record.at },
  });
  if (outcome.ok) return 'ok';
  // A balance that does not cover the price (or no such user); a lost race on the subscription is tried again.
  return outcome.reason === 'condition_failed' ? 'raced' : 'short';
}

/** The user's subscription on this tenant; one from another tenant does not count here. */
async function currentOn(userId: string, tenantId: string): Promise<{ stored: Subscription | undefined; here: Subscription | undefined }> {
  const stored = await store('subscriptions').current(userId);
  return { stored, here: stored?.tenantId === tenantId ? stored : undefined };
}

/** The tenant's trial plan, when the tenant offers a trial at all and the plan is still sold. */
function offeredTrial(tenant: Tenant, plans: readonly Plan[]): Plan | undefined {
  const { trialPlanId, trialDays } = tenant.settings;
  if (!trialPlanId || trialDays <= 0) return undefined;
  return plans.find((p) => p.planId === trialPlanId && !p.retired);
}

function trialAvailable(owner: TokenOwner, tenant: Tenant, plans: readonly Plan[], subscription: Subscription | undefined, now: number): boolean {
  if (owner.tenantId !== tenant.tenantId || !offeredTrial(tenant, plans)) return false;
  if (subscription?.trialUsedAt !== undefined) return false;
  return !(subscription && isActive(subscription, now));
}

function view(owner: TokenOwner, tenant: Tenant, plans: readonly Plan[], subscription: Subscription | undefined, now: number): Record<string, unknown> {
  const trial = offeredTrial(tenant, plans);
  return {
    status: !subscription ? 'none' : isActive(subscription, now) ? 'active' : 'expired',
    plan: subscription ? { plan_id: subscription.planId, name: subscription.planName } : null,
    is_trial: subscription?.trial ?? false,
    expires_at: subscription?.expiresAt ?? null,
    // After it ends, the feeds keep serving until then; after that they show as suspended.
    feeds_suspend_at: subscription ? subscription.expiresAt + tenant.settings.subscriptionGraceDays * DAY_SECONDS : null,
    limits: subscription
      ? { sources: subscription.limits.sources, apps_per_source: subscription.limits.appsPerSource, published_per_source: subscription.limits.publishedPerSource }
      : null,
    usage: { sources: subscription?.sourceCount ?? 0 },
    trial_available: trialAvailable(owner, tenant, plans, subscription, now),
    trial: trial ? { plan_id: trial.planId, days: tenant.settings.trialDays } : null,
    plans: owner.tenantId === tenant.tenantId ? plans.filter((p) => !p.retired).map(planView) : [],
  };
}

/** The caller's subscription, its limits and usage, whether the trial is available, and the plans on sale. */
export async function subscriptionOverview(owner: TokenOwner, tenant: Tenant, now: number): Promise<Record<string, unknown>> {
  const [{ here }, plans] = await Promise.all([currentOn(owner.userId, tenant.tenantId), store('plans').list(tenant.tenantId)]);
  return view(owner, tenant, plans, here, now);
}

export type SubscribeRequest = { trial: true; plan?: string | undefined } | { trial: false; plan: string };

/**
 * Starts the trial, or buys a plan from the balance. Buying the plan that is running extends it by the
 * plan's days from its current end; buying another plan (or after the subscription ended) starts now, and
 * the unused time of the plan it replaces is given up (README: "Changing plans").
 */
export async function subscribe(owner: TokenOwner, tenant: Tenant, request: SubscribeRequest, now: number): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const [{ stored, here }, plans] = await Promise.all([currentOn(owner.userId, tenant.tenantId), store('plans').list(tenant.tenantId)]);
    const change = request.trial ? trialChange(owner, tenant, plans, here, request.plan, now) : purchaseChange(owner, tenant, plans, here, request.plan, now);
    const subscriptions = store('subscriptions');
    const own = [subscriptions.changePart(change.next, stored?.version), subscriptions.recordPart(owner.userId, tenant.tenantId, change.record)];
    const outcome = await writeChange(owner.userId, change, own);
    if (outcome === 'ok') {
      const next: Subscription = { ...change.next, trialUsedAt: change.next.trialUsedAt ?? stored?.trialUsedAt, sourceCount: stored?.sourceCount ?? 0, version: (stored?.version ?? 0) + 1 };
      return { ...view(owner, tenant, plans, next, now), charged: change.price };
    }
    if (outcome === 'short') {
      throw new DomainError('conflict', 'balance_too_low', { params: { price: change.price }, data: { price: change.price } });
    }
    // Another change of the subscription won the race: judge again on what it left (after a short random pause).
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (attempt + 1)));
  }
  throw new DomainError('conflict', 'subscription_changed');
}

interface Change {
  next: Omit<Subscription, 'sourceCount' | 'version'>;
  record: SubscriptionRecord;
  price: number;
}

function trialChange(owner: TokenOwner, tenant: Tenant, plans: readonly Plan[], current: Subscription | undefined, planId: string | undefined, now: number): Change {
  const plan = offeredTrial(tenant, plans);
  if (!plan || !trialAvailable(owner, tenant, plans, current, now) || (planId !== undefined && planId !== plan.planId)) throw trialUnavailable();
  const expiresAt = now + tenant.settings.trialDays * DAY_SECONDS;
  return {
    next: { userId: owner.userId, tenantId: tenant.tenantId, planId: plan.planId, planName: plan.name, trial: true, limits: plan, startedAt: now, expiresAt, trialUsedAt: now },
    record: { kind: 'trial', planId: plan.planId, price: 0, days: tenant.settings.trialDays, periodStart: now, periodEnd: expiresAt, at: now },
    price: 0,
  };
}

function purchaseChange(owner: TokenOwner, tenant: Tenant, plans: readonly Plan[], current: Subscription | undefined, planId: string, now: number): Change {
  const plan = plans.find((p) => p.planId === planId);
  if (!plan || plan.retired || owner.tenantId !== tenant.tenantId) throw planUnavailable();
  const renewing = current !== undefined && current.planId === plan.planId && isActive(current, now);
  const periodStart = renewing ? current.expiresAt : now;
  const expiresAt = periodStart + plan.days * DAY_SECONDS;
  return {
    next: {
      userId: owner.userId,
      tenantId: tenant.tenantId,
      planId: plan.planId,
      planName: plan.name,
      trial: false,
      limits: { sources: plan.sources, appsPerSource: plan.appsPerSource, publishedPerSource: plan.publishedPerSource },
      startedAt: renewing ? current.startedAt : now,
      expiresAt,
      trialUsedAt: undefined,
    },
    record: { kind: renewing ? 'renewal' : 'purchase', planId: plan.planId, price: plan.price, days: plan.days, periodStart, periodEnd: expiresAt, at: now },
    price: plan.price,
  };
}

/** The operator moves a user's subscription end by `days` (negative shortens it; it may end at once). */
export async function extendSubscription(userId: string, days: number, now: number): Promise<Subscription> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const subscriptions = store('subscriptions');
    const current = await subscriptions.current(userId);
    if (!current) throw new RuleError('subscription_not_found', `user ${userId} has no subscription`);
    const expiresAt = current.expiresAt + days * DAY_SECONDS;
    const { sourceCount: _count, version, ...rest } = current;
    const outcome = await store('transactions').write(
      [
        subscriptions.changePart({ ...rest, expiresAt, trialUsedAt: undefined }, version),
        subscriptions.recordPart(userId, current.tenantId, { kind: 'extension', planId: current.planId, price: 0, days, periodStart: current.expiresAt, periodEnd: expiresAt, at: now }),
      ],
      { conflicts: 'report' },
    );
    if (outcome.ok) return { ...current, expiresAt, version: version + 1 };
  }
  throw new Error(`The subscription of ${userId} kept changing; try again`);
}

/** The operator's view of a user's subscription (`user show`). */
export function subscriptionSummary(subscription: Subscription | undefined, now: number): Record<string, unknown> | null {
  if (!subscription) return null;
  return {
    plan_id: subscription.planId,
    plan_name: subscription.planName,
    trial: subscription.trial,
    status: isActive(subscription, now) ? 'active' : 'expired',
    started_at: subscription.startedAt,
    expires_at: subscription.expiresAt,
    trial_used_at: subscription.trialUsedAt ?? null,
    sources: subscription.sourceCount,
    limits: { sources: subscription.limits.sources, apps_per_source: subscription.limits.appsPerSource, published_per_source: subscription.limits.publishedPerSource },
  };
}
