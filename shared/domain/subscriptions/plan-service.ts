/** The operator's plans: created per tenant, changed, retired (sold no more; subscribers keep theirs until it ends). */
import { getPlan, listPlans, putNewPlan, updatePlan } from '../../db/repositories/plan-repository';
import { RuleError } from '../errors';
import { randomId } from '../../ids';
import { changeTenantSettings, requireTenant } from '../tenants/tenant-service';
import type { Plan } from '../../records/plan';

export type PlanFields = Pick<Plan, 'name' | 'price' | 'days' | 'sources' | 'appsPerSource' | 'publishedPerSource'>;

const planNotFound = (tenantId: string, planId: string) => new RuleError('plan_not_found', `tenant ${tenantId} has no plan ${planId}`);

export async function createPlan(tenantId: string, fields: PlanFields, now: number): Promise<Plan> {
  const tenant = await requireTenant(tenantId);
  const plan: Plan = { tenantId: tenant.tenantId, planId: randomId('p_', 10), ...fields, retired: false, createdAt: now };
  await putNewPlan(plan);
  // From now on the tenant's sources live within plans (functions see it within TENANT_CACHE_SECONDS).
  if (!tenant.settings.plansOffered) await changeTenantSettings(tenant.tenantId, { settings: { plansOffered: true } });
  return plan;
}

export async function requirePlan(tenantId: string, planId: string): Promise<Plan> {
  const plan = await getPlan(tenantId, planId);
  if (!plan) throw planNotFound(tenantId, planId);
  return plan;
}

export async function plansOf(tenantId: string): Promise<Plan[]> {
  return listPlans((await requireTenant(tenantId)).tenantId);
}

/** Changes what a plan sells from now on; running subscriptions keep the limits they were bought with until renewed. */
export async function changePlan(tenantId: string, planId: string, changes: Partial<PlanFields>): Promise<Plan> {
  const plan = await updatePlan(tenantId, planId, {
    name: changes.name,
    price: changes.price,
    days: changes.days,
    sources: changes.sources,
    apps_per_source: changes.appsPerSource,
    published_per_source: changes.publishedPerSource,
  });
  if (!plan) throw planNotFound(tenantId, planId);
  return plan;
}

export async function retirePlan(tenantId: string, planId: string): Promise<Plan> {
  const plan = await updatePlan(tenantId, planId, { retired: true });
  if (!plan) throw planNotFound(tenantId, planId);
  return plan;
}
