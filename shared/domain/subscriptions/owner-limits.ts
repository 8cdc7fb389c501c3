/**
 * What a source owner's writes live within. An owner with a subscription on this tenant writes only while it
 * runs (else 40003 `subscription_expired`), within its plan's limits. An owner without one falls back on the
 * tenant's defaults only where the operator defined no plan at all; elsewhere writes need a subscription.
 */
import { tenantHasPlans } from '../../db/repositories/plan-repository';
import { getSubscription } from '../../db/repositories/subscription-repository';
import { DomainError } from '../errors';
import type { Actor } from '../sources/source';
import type { Tenant, TenantSettings } from '../tenants/tenant';
import { isActive } from './subscription';

export async function writableLimits(actor: Actor, tenant: Tenant, now: number): Promise<TenantSettings> {
  const subscription = await getSubscription(actor.userId);
  if (subscription && subscription.tenantId === actor.tenantId) {
    if (!isActive(subscription, now)) throw new DomainError('conflict', 'subscription_expired', { data: { expires_at: subscription.expiresAt } });
    return { ...tenant.settings, appsPerSource: subscription.limits.appsPerSource, publishedAppsPerSource: subscription.limits.publishedPerSource };
  }
  if (await tenantHasPlans(actor.tenantId)) throw new DomainError('conflict', 'subscription_required');
  return tenant.settings;
}
