/**
 * API Gateway throttles derived from the route table's per-minute limits. API Gateway's token buckets are
 * approximate and not per token owner, so they are only the coarse edge guard; the exact per-owner,
 * per-calendar-minute limits are enforced by the functions.
 */
import type { RouteDefinition } from '../shared/routes';

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

/** Public routes (no per-owner limit): sideloading clients refresh feeds in bursts. */
export const PUBLIC_ROUTE_THROTTLE: Throttle = { rateLimit: 100, burstLimit: 200 };

/** Stage method throttle for all callers of a route together. */
export function stageThrottle(route: Pick<RouteDefinition, 'rateLimit'>): Throttle {
  if (route.rateLimit === null) return PUBLIC_ROUTE_THROTTLE;
  const rateLimit = Math.ceil((route.rateLimit * EDGE_CONCURRENT_OWNERS) / 60);
  return { rateLimit, burstLimit: Math.max(2 * rateLimit, route.rateLimit) };
}

/**
 * Usage-plan throttle for one API key: one owner's per-minute allowance as a rate, and the whole minute's
 * allowance as the bucket, so a client within the function's limit is never stopped at the edge.
 */
export function clientThrottle(route: Pick<RouteDefinition, 'rateLimit'>): Throttle {
  if (route.rateLimit === null) return PUBLIC_ROUTE_THROTTLE;
  return { rateLimit: route.rateLimit / 60, burstLimit: route.rateLimit };
}
