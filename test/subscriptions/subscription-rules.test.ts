/**
 * The money rules of plans and subscriptions on in-memory stores: the trial once, a purchase paid from the
 * balance with its ledger entry, a renewal from the running end, a short balance or a retired plan changing
 * nothing, the operator's extension, and the limits an owner writes within. That the subscription, its
 * record and the debit are one conditional transaction (so N racing purchases charge once) is proven on
 * DynamoDB Local by `subscriptions.db.test.ts` ("10 identical purchases at once…", "with money for all…").
 */
import { DomainError, RuleError } from '../../shared/domain/errors';
import { limitsUnder, writableLimits } from '../../shared/domain/subscriptions/owner-limits';
import { extendSubscription, subscribe, subscriptionOverview } from '../../shared/domain/subscriptions/subscription-service';
import { DAY_SECONDS } from '../../shared/clock';
import { defaultTenantSettings, type Tenant } from '../../shared/records/tenant';
import type { Plan } from '../../shared/records/plan';
import { useMemoryStores, type MemoryStores } from '../support/memory-stores';

const NOW = 1_800_000_000;
const owner = { userId: 'u1', tenantId: 't1', tokenExpiresAt: undefined };

let stores: MemoryStores;
let tenant: Tenant;
let starter: Plan;
let pro: Plan;

beforeEach(() => {
  stores = useMemoryStores();
  starter = stores.plans.add({ tenantId: 't1', planId: 'p_starter', name: 'Starter', price: 500, days: 30, sources: 2, appsPerSource: 3, publishedPerSource: 2 });
  pro = stores.plans.add({ tenantId: 't1', planId: 'p_pro', name: 'Pro', price: 1_000, days: 30, sources: 3, appsPerSource: 5, publishedPerSource: 5 });
  tenant = { tenantId: 't1', name: 'Shop', domain: undefined, defaultLang: 'en', settings: { ...defaultTenantSettings, plansOffered: true, trialPlanId: starter.planId, trialDays: 7, subscriptionGraceDays: 7 } };
});

/** The user's balance: what the ledger store holds for them. */
const balance = () => stores.ledger.head('u1')!.balance;

/** The domain error a call throws, as its kind, reason and data. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(DomainError);
  const { kind, reason, data } = error as DomainError;
  return { kind, reason, data };
}

describe('the trial', () => {
  test('once per user: started free, offered no more, even after it ended', async () => {
    stores.ledger.addUser('u1', 0, 't1');
    expect(await subscriptionOverview(owner, tenant, NOW)).toMatchObject({ status: 'none', trial_available: true, trial: { plan_id: starter.planId, days: 7 } });
    const started = await subscribe(owner, tenant, { trial: true }, NOW);
    expect(started).toMatchObject({ status: 'active', is_trial: true, expires_at: NOW + 7 * DAY_SECONDS, charged: 0, trial_available: false });
    expect(stores.ledger.list('u1')).toEqual([]);
    const later = NOW + 8 * DAY_SECONDS;
    expect(await subscriptionOverview(owner, tenant, later)).toMatchObject({ status: 'expired', trial_available: false });
    expect(await refusal(subscribe(owner, tenant, { trial: true }, later))).toMatchObject({ kind: 'conflict', reason: 'trial_unavailable' });
    expect(stores.subscriptions.records('u1').map((r) => r.kind)).toEqual(['trial']);
  });

  test('not for a plan other than the trial plan, and not where the tenant offers none', async () => {
    stores.ledger.addUser('u1', 0, 't1');
    expect(await refusal(subscribe(owner, tenant, { trial: true, plan: pro.planId }, NOW))).toMatchObject({ reason: 'trial_unavailable' });
    const noTrial = { ...tenant, settings: { ...tenant.settings, trialDays: 0 } };
    expect(await refusal(subscribe(owner, noTrial, { trial: true }, NOW))).toMatchObject({ reason: 'trial_unavailable' });
    expect(stores.subscriptions.get('u1')).toBeUndefined();
  });

  test('buying a plan after the trial ends the trial: the plan starts now', async () => {
    stores.ledger.addUser('u1', 1_000, 't1');
    await subscribe(owner, tenant, { trial: true }, NOW);
    const bought = await subscribe(owner, tenant, { trial: false, plan: pro.planId }, NOW + 100);
    expect(bought).toMatchObject({ is_trial: false, plan: { plan_id: pro.planId }, expires_at: NOW + 100 + 30 * DAY_SECONDS, charged: 1_000 });
    expect(stores.subscriptions.get('u1')).toMatchObject({ trialUsedAt: NOW, version: 2 });
  });
});

describe('purchases (moved from subscriptions.db.test.ts: "renewing the running plan…")', () => {
  test('a purchase debits the price with a `subscription` ledger entry; renewing extends from the running end', async () => {
    stores.ledger.addUser('u1', 2_000, 't1');
    const first = await subscribe(owner, tenant, { trial: false, plan: pro.planId }, NOW);
    const end = NOW + 30 * DAY_SECONDS;
    expect(first).toMatchObject({ status: 'active', expires_at: end, charged: 1_000, limits: { sources: 3, apps_per_source: 5, published_per_source: 5 } });
    const renewed = await subscribe(owner, tenant, { trial: false, plan: pro.planId }, NOW + 10 * DAY_SECONDS);
    expect(renewed).toMatchObject({ expires_at: end + 30 * DAY_SECONDS, charged: 1_000 });
    expect(balance()).toBe(0);
    expect(stores.ledger.list('u1').map((e) => [e.kind, e.amount, e.balanceAfter, e.ref.plan])).toEqual([
      ['opening', 2_000, 2_000, undefined],
      ['subscription', -1_000, 1_000, pro.planId],
      ['subscription', -1_000, 0, pro.planId],
    ]);
    expect(stores.subscriptions.records('u1').map((r) => [r.kind, r.price, r.periodStart, r.periodEnd])).toEqual([
      ['purchase', 1_000, NOW, end],
      ['renewal', 1_000, end, end + 30 * DAY_SECONDS],
    ]);
  });

  test('a balance short of the price: balance_too_low with the price, and nothing changes', async () => {
    stores.ledger.addUser('u1', 1_500, 't1');
    await subscribe(owner, tenant, { trial: false, plan: pro.planId }, NOW);
    const before = stores.subscriptions.get('u1');
    expect(await refusal(subscribe(owner, tenant, { trial: false, plan: pro.planId }, NOW + 1))).toEqual({ kind: 'conflict', reason: 'balance_too_low', data: { price: 1_000 } });
    expect(balance()).toBe(500);
    expect(stores.subscriptions.get('u1')).toEqual(before);
    expect(stores.subscriptions.records('u1')).toHaveLength(1);
    expect(stores.ledger.list('u1')).toHaveLength(2);
  });

  test('another plan, or the same one after it ended, starts now: the unused time is given up', async () => {
    stores.ledger.addUser('u1', 3_000, 't1');
    await subscribe(owner, tenant, { trial: false, plan: pro.planId }, NOW);
    const switched = await subscribe(owner, tenant, { trial: false, plan: starter.planId }, NOW + DAY_SECONDS);
    expect(switched).toMatchObject({ plan: { plan_id: starter.planId }, expires_at: NOW + 31 * DAY_SECONDS, charged: 500 });
    const after = NOW + 40 * DAY_SECONDS;
    expect(await subscribe(owner, tenant, { trial: false, plan: starter.planId }, after)).toMatchObject({ expires_at: after + 30 * DAY_SECONDS });
    expect(stores.subscriptions.records('u1').map((r) => r.kind)).toEqual(['purchase', 'purchase', 'purchase']);
  });

  test('a free plan changes the subscription with no ledger entry', async () => {
    stores.plans.add({ tenantId: 't1', planId: 'p_free', name: 'Free', price: 0, days: 10, sources: 1, appsPerSource: 1, publishedPerSource: 1 });
    stores.ledger.addUser('u1', 0, 't1');
    expect(await subscribe(owner, tenant, { trial: false, plan: 'p_free' }, NOW)).toMatchObject({ charged: 0, expires_at: NOW + 10 * DAY_SECONDS });
    expect(stores.ledger.list('u1')).toEqual([]);
  });

  test('concurrent purchases each charge and each extend, none lost (the in-memory version condition; DynamoDB Local proves the real one)', async () => {
    stores.ledger.addUser('u1', 4_000, 't1');
    const answers = await Promise.all(Array.from({ length: 4 }, () => subscribe(owner, tenant, { trial: false, plan: pro.planId }, NOW)));
    expect(answers.map((a) => a.charged)).toEqual([1_000, 1_000, 1_000, 1_000]);
    expect(balance()).toBe(0);
    expect(stores.subscriptions.get('u1')).toMatchObject({ expiresAt: NOW + 120 * DAY_SECONDS, version: 4 });
  });
});

describe('plans on sale (moved from subscriptions.db.test.ts: "a retired plan is sold no more…")', () => {
  test('a retired plan is sold no more, but its subscriber keeps it, and its limits, until it ends', async () => {
    stores.ledger.addUser('u1', 2_000, 't1');
    await subscribe(owner, tenant, { trial: false, plan: pro.planId }, NOW);
    stores.plans.retire('t1', pro.planId);
    expect(await refusal(subscribe(owner, tenant, { trial: false, plan: pro.planId }, NOW + 1))).toMatchObject({ reason: 'plan_unavailable' });
    const overview = await subscriptionOverview(owner, tenant, NOW + 1);
    expect(overview).toMatchObject({ status: 'active', plan: { plan_id: pro.planId } });
    expect((overview.plans as { plan_id: string }[]).map((p) => p.plan_id)).toEqual([starter.planId]);
    expect(await writableLimits(owner, tenant, NOW + 1)).toMatchObject({ appsPerSource: 5, publishedAppsPerSource: 5 });
    expect(balance()).toBe(1_000);
  });

  test('an unknown plan, or a plan of another tenant, is plan_unavailable and charges nothing', async () => {
    stores.ledger.addUser('u1', 5_000, 't1');
    stores.plans.add({ tenantId: 't2', planId: 'p_elsewhere', name: 'Elsewhere', price: 1, days: 1, sources: 1, appsPerSource: 1, publishedPerSource: 1 });
    for (const plan of ['p_unknown', 'p_elsewhere']) expect(await refusal(subscribe(owner, tenant, { trial: false, plan }, NOW))).toMatchObject({ reason: 'plan_unavailable' });
    // A token of another tenant on this host sees no plans and may buy none.
    const visitor = { ...owner, tenantId: 't2' };
    expect(await subscriptionOverview(visitor, tenant, NOW)).toMatchObject({ plans: [], trial_available: false });
    expect(await refusal(subscribe(visitor, tenant, { trial: false, plan: pro.planId }, NOW))).toMatchObject({ reason: 'plan_unavailable' });
    expect(balance()).toBe(5_000);
    expect(stores.subscriptions.get('u1')).toBeUndefined();
  });
});

describe("the operator's extension", () => {
  test('moves the end either way with an extension record; a user without a subscription is refused', async () => {
    stores.ledger.addUser('u1', 0, 't1');
    await subscribe(owner, tenant, { trial: true }, NOW);
    const end = NOW + 7 * DAY_SECONDS;
    expect(await extendSubscription('u1', 3, NOW)).toMatchObject({ expiresAt: end + 3 * DAY_SECONDS });
    expect(await extendSubscription('u1', -11, NOW)).toMatchObject({ expiresAt: end - 8 * DAY_SECONDS });
    expect(stores.subscriptions.records('u1').map((r) => [r.kind, r.days, r.price])).toEqual([
      ['trial', 7, 0],
      ['extension', 3, 0],
      ['extension', -11, 0],
    ]);
    // The trial stays used after an extension.
    expect(stores.subscriptions.get('u1')).toMatchObject({ trialUsedAt: NOW, version: 3 });
    await expect(extendSubscription('nobody', 1, NOW)).rejects.toBeInstanceOf(RuleError);
  });
});

describe('the limits an owner writes within (the quota)', () => {
  const actor = { userId: 'u1', tenantId: 't1' };

  test('a tenant without plans: its own limits, without reading a subscription', async () => {
    const plain = { ...tenant, settings: { ...tenant.settings, plansOffered: false, appsPerSource: 9 } };
    expect(await writableLimits(actor, plain, NOW)).toMatchObject({ appsPerSource: 9 });
    expect(stores.subscriptions.reads).toBe(0);
  });

  test('no subscription, or one on another tenant: subscription_required; an ended one: subscription_expired with its end', async () => {
    expect(await refusal(writableLimits(actor, tenant, NOW))).toMatchObject({ kind: 'conflict', reason: 'subscription_required' });
    stores.ledger.addUser('u1', 1_000, 't1');
    await subscribe(owner, tenant, { trial: false, plan: pro.planId }, NOW);
    expect(await refusal(writableLimits({ ...actor, tenantId: 't2' }, { ...tenant, tenantId: 't2' }, NOW))).toMatchObject({ reason: 'subscription_required' });
    const end = NOW + 30 * DAY_SECONDS;
    expect(await writableLimits(actor, tenant, end - 1)).toMatchObject({ appsPerSource: 5, publishedAppsPerSource: 5 });
    expect(await refusal(writableLimits(actor, tenant, end))).toEqual({ kind: 'conflict', reason: 'subscription_expired', data: { expires_at: end } });
  });

  test('the limits are those bought with the subscription, not the tenant-wide ones', () => {
    const subscription = { userId: 'u1', tenantId: 't1', planId: 'p', planName: 'P', trial: false, limits: { sources: 1, appsPerSource: 2, publishedPerSource: 1 }, startedAt: NOW, expiresAt: NOW + 10, trialUsedAt: undefined, sourceCount: 0, version: 1 };
    expect(limitsUnder(actor, { ...tenant, settings: { ...tenant.settings, appsPerSource: 100, publishedAppsPerSource: 100 } }, NOW, subscription)).toMatchObject({ appsPerSource: 2, publishedAppsPerSource: 1 });
  });
});
