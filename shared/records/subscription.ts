import type { PlanLimits } from './plan';

/** A user's running (or ended) subscription: the plan it holds, the limits bought with it, and until when. */
export interface Subscription {
  userId: string;
  tenantId: string;
  planId: string;
  planName: string;
  /** Started as the tenant's trial rather than bought. */
  trial: boolean;
  /** The plan's limits when it was bought or renewed (a later change of the plan applies from the next purchase). */
  limits: PlanLimits;
  startedAt: number;
  /** Unix seconds; the subscription is active while `now < expiresAt`. */
  expiresAt: number;
  /** When the user started the tenant's trial, if ever: a user gets it once. */
  trialUsedAt: number | undefined;
  /** Sources created through the API that count against the plan. */
  sourceCount: number;
  /** Moves on every change: each change is conditioned on the version it was computed from. */
  version: number;
}

/** What a purchase, trial or operator extension did, kept beside the subscription for the ledger and support. */
export interface SubscriptionRecord {
  kind: 'trial' | 'purchase' | 'renewal' | 'extension';
  planId: string;
  /** Cents taken from the balance (0 for a trial or an extension). */
  price: number;
  /** Days added (negative for an operator's shortening). */
  days: number;
  periodStart: number;
  periodEnd: number;
  at: number;
}

export const isActive = (subscription: Pick<Subscription, 'expiresAt'>, now: number) => now < subscription.expiresAt;
