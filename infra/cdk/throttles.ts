/**
 * API Gateway throttles derived from the route table's per-minute limits. API Gateway's token buckets are
 * approximate and not per token owner, so they are only the coarse edge guard; the exact per-owner,
 * per-calendar-minute limits are enforced by the functions (see the README's "Rate limits").
 */
import type { RouteDefinition } from '../../shared/routes';

export interface Throttle {
  /** Steady-state requests per second. */
  rateLimit: number;
  /** Token-bucket capacity: requests allowed at once. */
  burstLimit: number;
}

/**
 * Stage method throttles count every caller of a method together, so they must leave room for many owners
 * at their full per-minute allowance at once: this many.
 */
export const EDGE_CONCURRENT_OWNERS = 50;

/**
 * The usage plan's per-method throttle applies per API key, and each tenant has one key: room for this many
 * of one tenant's owners at their full allowance at once, so one tenant's flood cannot take the whole stage.
 */
export const EDGE_OWNERS_PER_TENANT = 20;

/** Public routes (no per-owner limit): sideloading clients refresh feeds in bursts. */
export const PUBLIC_ROUTE_THROTTLE: Throttle = { rateLimit: 100, burstLimit: 200 };
/** One tenant's share of a public route. */
export const PUBLIC_ROUTE_TENANT_THROTTLE: Throttle = { rateLimit: 50, burstLimit: 100 };

function forOwners(limitPerMinute: number, owners: number): Throttle {
  const rateLimit = Math.ceil((limitPerMinute * owners) / 60);
  // A single owner may always spend a whole minute's allowance at once.
  return { rateLimit, burstLimit: Math.max(2 * rateLimit, limitPerMinute) };
}

/** Stage method throttle for all callers of a route together. */
export function stageThrottle(route: Pick<RouteDefinition, 'rateLimit'>): Throttle {
  return route.rateLimit === null ? PUBLIC_ROUTE_THROTTLE : forOwners(route.rateLimit, EDGE_CONCURRENT_OWNERS);
}

/** Usage-plan method throttle for one tenant's API key. */
export function tenantThrottle(route: Pick<RouteDefinition, 'rateLimit'>): Throttle {
  return route.rateLimit === null ? PUBLIC_ROUTE_TENANT_THROTTLE : forOwners(route.rateLimit, EDGE_OWNERS_PER_TENANT);
}
