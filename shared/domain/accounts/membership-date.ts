/**
 * When an account's membership renews: the end of its year, when Apple lets the team reset its device list.
 * App Store Connect's API does not expose it (no resource of the provisioning API carries it, and the
 * certificate's expiry is a different date), so the owner gives it, or it stays unknown (0): never guessed.
 */
import { DomainError } from '../errors';

/** Apple memberships run a year: a renewal date further out than this is a typing error, not a membership. */
const MEMBERSHIP_MAX_AHEAD_SECONDS = 367 * 86_400;

/**
 * The membership renewal date as the owner gives it (Apple's API does not tell it): 0 for unknown, otherwise
 * a moment within the coming year. Anything else is refused, naming the field.
 */
export function checkMembershipDate(renewsAt: number, now: number): number {
  if (renewsAt === 0) return 0;
  if (renewsAt <= now || renewsAt > now + MEMBERSHIP_MAX_AHEAD_SECONDS) {
    throw new DomainError('validation', 'invalid_value', { fields: ['membership_renews_at'], messageKey: 'apple_membership_date' });
  }
  return renewsAt;
}

