/**
 * The brand a customer's page, UDID profile or feed shows: an agent's storefront wherever the agent is the
 * seller (its own domain, its store on the parent's domain, its sources), else the site's (the tenant's).
 * An agent's brand never falls back to anything above it: an agent that set no storefront shows its own
 * name, so no page of an agent names its parent, the parent's logo or contact.
 *
 * Cached in the container like the tenant of a host (TENANT_CACHE_SECONDS), so a feed read keeps its round
 * trips: a changed storefront reaches running functions within that time.
 */
import type { StorefrontLook } from '../../records/storefront';
import { nowMs } from '../../clock';
import { config } from '../../config';
import { anySuspended, getStorefrontOwner } from '../../db/repositories/storefront-repository';
import { tableName } from '../../db/table-names';
import type { Tenant } from '../../records/tenant';
import { levelOf } from '../../records/user';

export interface PageBrand extends StorefrontLook {
  /** The agent whose storefront this is. */
  agentId: string;
  /** The agent (or one above it) is suspended: its pages keep its brand, hide the buy link and say it takes no new orders. */
  paused: boolean;
}

const MAX_ENTRIES = 1_000;
/** A user's brand with its tenant (undefined brand: not an agent, or no such user). */
interface Entry {
  tenantId: string | undefined;
  brand: PageBrand | undefined;
}
const cache = new Map<string, { value: Entry; expiresAt: number }>();

async function loadBrand(userId: string): Promise<Entry> {
  const found = await getStorefrontOwner(userId);
  if (!found) return { tenantId: undefined, brand: undefined };
  const { user, storefront: s } = found;
  if (levelOf(user) === 0) return { tenantId: user.tenantId, brand: undefined };
  // Paused as its adds are refused: the agent, or any reseller above it, suspended.
  const paused = user.suspended || (await anySuspended(user.upline));
  return {
    tenantId: user.tenantId,
    brand: { agentId: user.userId, name: s.name || user.name, logoUrl: s.logoUrl, primaryColor: s.primaryColor, headerColor: s.headerColor, notice: s.notice, contact: s.contact, buyUrl: s.buyUrl, paused },
  };
}

/**
 * The brand of `userId` when it is an agent of `tenantId` (undefined for a reseller of the operator, an
 * unknown id or another tenant's user: their pages carry the site's brand).
 */
export async function agentBrand(userId: string, tenantId: string): Promise<PageBrand | undefined> {
  const ttlMs = config().tenantCacheSeconds * 1000;
  const key = `${tableName('users')}\0${userId}`;
  const now = nowMs();
  const hit = ttlMs > 0 ? cache.get(key) : undefined;
  let entry: Entry;
  if (hit && hit.expiresAt > now) entry = hit.value;
  else {
    entry = await loadBrand(userId);
    if (ttlMs > 0) {
      cache.delete(key);
      cache.set(key, { value: entry, expiresAt: now + ttlMs });
      if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    }
  }
  return entry.tenantId === tenantId ? entry.brand : undefined;
}

/** The storefront of the request's host, when it is an agent's domain. */
export function hostBrand(tenant: Tenant): Promise<PageBrand | undefined> {
  return tenant.storefrontOwner ? agentBrand(tenant.storefrontOwner, tenant.tenantId) : Promise.resolve(undefined);
}

/** Forgets a cached brand (after its agent changed it in this container). */
export function forgetBrand(userId: string): void {
  cache.delete(`${tableName('users')}\0${userId}`);
}
