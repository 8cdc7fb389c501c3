/**
 * A source whose owner's subscription ended keeps its feed for the tenant's grace period; after that the feed
 * is a placeholder document (like the blocked one: it loads in every client) saying the source is suspended,
 * until the owner renews. Sources of owners without a subscription on the source's tenant (made by the
 * operator) are never suspended, and on a tenant that sells no plans no read is spent on it.
 */
import { getSubscription } from '../../db/repositories/subscription-repository';
import { DAY_SECONDS } from '../../records/plan';
import { localize } from '../../i18n/localize';
import type { Lang } from '../../i18n/languages';
import { buildPlaceholderFeed, type FeedContext } from './feed';
import type { Source } from '../../records/source';
import type { TenantSettings } from '../../records/tenant';
import { config } from '../../config';

/**
 * The end of each owner's subscription on the source's tenant (undefined: none), kept per function container
 * for `OWNER_CACHE_SECONDS` (default 60; 0 turns it off). The feed and the gate are the hottest reads and
 * a suspension is days away from its cause (the grace period), so a minute's delay is invisible while the
 * read it saves would put both above their call floors.
 */
const ownerEnds = new Map<string, { end: number | undefined; until: number }>();

const ownerCacheSeconds = (): number => config().ownerCacheSeconds;

async function subscriptionEnd(ownerId: string, tenantId: string): Promise<number | undefined> {
  const key = `${tenantId}#${ownerId}`;
  const now = Date.now();
  const cached = ownerEnds.get(key);
  if (cached && cached.until > now) return cached.end;
  const subscription = await getSubscription(ownerId);
  const end = subscription && subscription.tenantId === tenantId ? subscription.expiresAt : undefined;
  const ttl = ownerCacheSeconds();
  if (ttl > 0) {
    if (ownerEnds.size > 10_000) ownerEnds.clear();
    ownerEnds.set(key, { end, until: now + ttl * 1000 });
  }
  return end;
}

/** What the source's tenant says about suspending feeds. */
export interface SuspensionPolicy {
  plansOffered: boolean;
  /** Days a feed keeps serving after its owner's subscription ended. */
  graceDays: number;
}

export const suspensionPolicy = (settings: TenantSettings): SuspensionPolicy => ({ plansOffered: settings.plansOffered, graceDays: settings.subscriptionGraceDays });

export async function isSuspended(source: Pick<Source, 'owner_id' | 'tenant_id'>, policy: SuspensionPolicy, nowSeconds: number): Promise<boolean> {
  if (!policy.plansOffered) return false;
  const end = await subscriptionEnd(source.owner_id, source.tenant_id);
  return end !== undefined && nowSeconds >= end + policy.graceDays * DAY_SECONDS;
}

export function buildSuspendedFeed(ctx: FeedContext, lang: Lang): Record<string, unknown> {
  return buildPlaceholderFeed(ctx, { title: localize(lang, 'suspended_title'), notice: localize(lang, 'suspended_notice'), kind: 'suspended' });
}
