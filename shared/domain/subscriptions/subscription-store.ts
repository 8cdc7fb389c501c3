/**
 * What the subscription and plan rules ask of storage, declared here so the rules own it: the DynamoDB
 * repositories implement it (`shared/stores/subscriptions.ts`, `shared/stores/plans.ts` wire them once per
 * function), the rule tests run on in-memory ones. The version condition on the subscription and the
 * transaction with the balance debit are the repository's, proven on DynamoDB Local.
 */
import type { TransactionPart } from '../../db/transactions';
import type { Plan } from '../../records/plan';
import type { Subscription, SubscriptionRecord } from '../../records/subscription';

export interface SubscriptionStore {
  /** The user's subscription (on whichever tenant), strongly consistent; undefined when there never was one. */
  current(userId: string): Promise<Subscription | undefined>;
  /**
   * Writes the subscription's new state while it is still at `seenVersion` (undefined: while the user has
   * none), moving its version on by one; never its source count.
   */
  changePart(next: Omit<Subscription, 'sourceCount' | 'version'>, seenVersion: number | undefined): TransactionPart;
  /** Adds the record of a change to the user's history. */
  recordPart(userId: string, tenantId: string, record: SubscriptionRecord): TransactionPart;
}

export interface PlanStore {
  /** Every plan of the tenant, retired ones included. */
  list(tenantId: string): Promise<Plan[]>;
}
