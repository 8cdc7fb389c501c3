/**
 * What a source owner's writes live within. An owner with a subscription on this tenant writes only while it
 * runs (else 40003 `subscription_expired`), within its plan's limits. An owner without one falls back on the
 * tenant's defaults only where the operator defined no plan at all; elsewhere writes need a subscription.
 */
import { getSubscription } from '../../db/repositories/subscription-repository';
import { DomainError } from '../errors';
import type { Actor } from '../sources/source';
import type { Tenant, TenantSettings } from '../tenants/tenant';
import { isActive, type Subscription } from './subscription';

export async function writableLimits(actor: Actor, tenant: Tenant, now: number): Promise<TenantSettings> {
  return limitsUnder(actor, tenant, now, await getSubscription(actor.userId));
}

/**
 * The same judgement on a subscription the caller already read (publish reads it in the batch that reads the
 * app, so the check costs no call of its own). Whether the tenant has plans is the tenant's `plansDefined`
 * (set by the first `plan create`), so no plans table is read either.
 */
export function limitsUnder(actor: Actor, tenant: Tenant, now: number, subscription: Subscription | undefined): TenantSettings {
  if (subscription && subscription.tenantId === actor.tenantId) {
    if (!isActive(subscription, now)) throw new DomainError('conflict', 'subscription_expired', { data: { expires_at: subscription.expiresAt } });
    return { ...tenant.settings, appsPerSource: subscription.limits.appsPerSource, publishedAppsPerSource: subscription.limits.publishedPerSource };
  }
  if (tenant.settings.plansDefined) throw new DomainError('conflict', 'subscription_required');
  return tenant.settings;
}
