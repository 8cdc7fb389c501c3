/**
 * A source whose owner's subscription ended keeps its feed for the tenant's grace period; after that the feed
 * is a placeholder document (like the blocked one: it loads in every client) saying the source is suspended,
 * until the owner renews. Sources of owners without a subscription on the source's tenant (made by the
 * operator) are never suspended, and on a tenant that sells no plans no read is spent on it.
 */
import { getSubscription } from '../../db/repositories/subscription-repository';
import { DAY_SECONDS } from '../subscriptions/plan';
import { localize } from '../../i18n/localize';
import type { Lang } from '../../i18n/languages';
import { buildPlaceholderFeed, type FeedContext } from './feed';
import type { Source } from './source';
import type { TenantSettings } from '../tenants/tenant';

/** What the source's tenant says about suspending feeds. */
export interface SuspensionPolicy {
  plansOffered: boolean;
  /** Days a feed keeps serving after its owner's subscription ended. */
  graceDays: number;
}

export const suspensionPolicy = (settings: TenantSettings): SuspensionPolicy => ({ plansOffered: settings.plansOffered, graceDays: settings.subscriptionGraceDays });

export async function isSuspended(source: Pick<Source, 'owner_id' | 'tenant_id'>, policy: SuspensionPolicy, nowSeconds: number): Promise<boolean> {
  if (!policy.plansOffered) return false;
  const subscription = await getSubscription(source.owner_id);
  if (!subscription || subscription.tenantId !== source.tenant_id) return false;
  return nowSeconds >= subscription.expiresAt + policy.graceDays * DAY_SECONDS;
}

export function buildSuspendedFeed(ctx: FeedContext, lang: Lang): Record<string, unknown> {
  return buildPlaceholderFeed(ctx, { title: localize(lang, 'suspended_title'), notice: localize(lang, 'suspended_notice'), kind: 'suspended' });
}
