/**
 * The "may write" judgement of `writableLimits` (owner-limits.ts) as a condition of the write itself, for a
 * request whose one write is a transaction and which uses no plan limit, only the right to write (update
 * source): on a tenant that sells plans the transaction carries a check of the owner's subscription instead of
 * a read before it, which saves that read's round trip. A failed check hands back the subscription as it was,
 * judged by `limitsUnder`, so the refusals are those of the read: none or another tenant's, 40003
 * `subscription_required`; ended, `subscription_expired` with its end. Undefined where no plan is sold.
 */
import { DomainError } from '../errors';
import { limitsUnder, writableLimits } from './owner-limits';
import { runningSubscriptionCheckPart, subscriptionSeenByCheck } from '../../db/repositories/subscription-repository';
import type { WriteCondition } from '../sources/source-service';
import type { Actor } from '../../records/source';
import type { Tenant } from '../../records/tenant';

export function subscriptionWriteCondition(actor: Actor, tenant: Tenant, now: number): WriteCondition | undefined {
  if (!tenant.settings.plansOffered) return undefined;
  return {
    part: runningSubscriptionCheckPart(actor.userId, actor.tenantId, now),
    refused(seen) {
      limitsUnder(actor, tenant, now, subscriptionSeenByCheck(seen));
      // The check failed on a subscription the judgement accepts: only a clock or a store out of step does that.
      throw new DomainError('unavailable', 'internal_error');
    },
    judged: () => writableLimits(actor, tenant, now),
  };
}
