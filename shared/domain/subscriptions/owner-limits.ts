/**
 * What a source owner's writes live within. Where the operator defined no plan at all, the tenant-wide
 * defaults, and no read is spent on it. Elsewhere an owner writes only with a subscription on this tenant
 * (else 40003 `subscription_required`) and only while it runs (else `subscription_expired`), within its plan.
 */
import { DomainError } from '../errors';
import { store } from '../stores';
import type { Actor } from '../../records/source';
import type { Tenant, TenantSettings } from '../../records/tenant';
import { isActive, type Subscription } from '../../records/subscription';

export async function writableLimits(actor: Actor, tenant: Tenant, now: number): Promise<TenantSettings> {
  if (!tenant.settings.plansOffered) return tenant.settings;
  return limitsUnder(actor, tenant, now, await store('subscriptions').current(actor.userId));
}

/**
 * The same judgement on a subscription the caller already read (publish reads it in the batch that reads the
 * app, so the check costs no call of its own).
 */
export function limitsUnder(actor: Actor, tenant: Tenant, now: number, subscription: Subscription | undefined): TenantSettings {
  if (!tenant.settings.plansOffered) return tenant.settings;
  if (subscription && subscription.tenantId === actor.tenantId) {
    if (!isActive(subscription, now)) throw new DomainError('conflict', 'subscription_expired', { data: { expires_at: subscription.expiresAt } });
    return { ...tenant.settings, appsPerSource: subscription.limits.appsPerSource, publishedAppsPerSource: subscription.limits.publishedPerSource };
  }
  throw new DomainError('conflict', 'subscription_required');
}
