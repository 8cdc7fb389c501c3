import { snakeCaseFields } from '../snake-case-fields';

/** What a tenant sells: a period of days at a price, and the limits a subscriber's sources live within. */
export interface PlanLimits {
  /** Sources the subscriber may hold against the plan. */
  sources: number;
  /** Apps (drafts and published) per source. */
  appsPerSource: number;
  /** Published apps per source. */
  publishedPerSource: number;
}

export interface Plan extends PlanLimits {
  tenantId: string;
  planId: string;
  name: string;
  /** Cents, taken from the balance per period. */
  price: number;
  /** Days one purchase adds. */
  days: number;
  /** A retired plan is sold no more (no purchase, no renewal, no trial); its subscribers keep it until it ends. */
  retired: boolean;
  createdAt: number;
}

/** Bounds an operator's plan must respect (a period of at most ten years; limits a source table can hold). */
export const PLAN_BOUNDS = {
  days: { min: 1, max: 3650 },
  sources: { min: 0, max: 10_000 },
  appsPerSource: { min: 0, max: 100_000 },
  publishedPerSource: { min: 0, max: 100_000 },
  price: { min: 0, max: 100_000_000 },
} as const;

/** A plan as its buyers see it: no tenant, no internals. */
const shownToBuyers = snakeCaseFields<Plan>()(['planId', 'name', 'price', 'days', 'sources', 'appsPerSource', 'publishedPerSource']);
export const planView = (plan: Plan): Record<string, unknown> => shownToBuyers.toSnake(plan);

export { DAY_SECONDS } from '../clock';
