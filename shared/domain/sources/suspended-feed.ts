/**
 * A source whose owner's subscription ended keeps its feed for the tenant's grace period; after that the feed
 * is a placeholder document (like the blocked one: it loads in every client) saying the source is suspended,
 * until the owner renews. Sources of owners without a subscription on the source's tenant (made by the
 * operator, on tenants without plans) are never suspended.
 */
import { getSubscription } from '../../db/repositories/subscription-repository';
import { DAY_SECONDS } from '../subscriptions/plan';
import { localize } from '../../i18n/localize';
import type { Lang } from '../../i18n/languages';
import { buildPlaceholderFeed, type FeedContext } from './feed';
import type { Source } from './source';

export async function isSuspended(source: Pick<Source, 'owner_id' | 'tenant_id'>, graceDays: number, nowSeconds: number): Promise<boolean> {
  const subscription = await getSubscription(source.owner_id);
  if (!subscription || subscription.tenantId !== source.tenant_id) return false;
  return nowSeconds >= subscription.expiresAt + graceDays * DAY_SECONDS;
}

export function buildSuspendedFeed(ctx: FeedContext, lang: Lang): Record<string, unknown> {
  return buildPlaceholderFeed(ctx, { title: localize(lang, 'suspended_title'), notice: localize(lang, 'suspended_notice'), kind: 'suspended' });
}
