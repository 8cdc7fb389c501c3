/**
 * `subscription.expiring` and `subscription.expired`, from the reservation worker's schedule. The pass reads
 * only subscriptions whose end is near or past and not yet announced (the sparse `by-notice` index of the
 * subscriptions table), so its cost follows the subscriptions that are due, not their number. Each event is
 * written with the mark that says it went out, conditioned on the subscription being unchanged, so a renewal
 * racing the pass never gets a stale notice, and no end is announced twice.
 */
import { expiredToldPart, expiringToldPart, listSubscriptionNoticesDue } from '../../db/repositories/subscription-repository';
import { transactWrite } from '../../db/transactions';
import { logger } from '../../logger';
import type { Subscription } from '../../records/subscription';
import { EXPIRY_NOTICE_MAX_DAYS } from '../../records/tenant';
import { tenantSettingsCache } from './device-events';
import { eventPart } from './outbox';

const DAY = 86_400;
const SUBSCRIPTIONS_PER_PASS = 200;

export interface SubscriptionNoticeReport {
  looked: number;
  expiring: number;
  expired: number;
}

function subscriptionData(subscription: Subscription) {
  return { plan_id: subscription.planId, plan_name: subscription.planName, trial: subscription.trial, expires_at: subscription.expiresAt };
}

export async function runSubscriptionNoticePass(now: number): Promise<SubscriptionNoticeReport> {
  const report: SubscriptionNoticeReport = { looked: 0, expiring: 0, expired: 0 };
  const settingsOf = tenantSettingsCache();
  for (const { subscription, expiringToldFor } of await listSubscriptionNoticesDue(now + EXPIRY_NOTICE_MAX_DAYS * DAY, SUBSCRIPTIONS_PER_PASS)) {
    report.looked++;
    const owner = { tenantId: subscription.tenantId, userId: subscription.userId };
    try {
      if (subscription.expiresAt <= now) {
        const written = await transactWrite([expiredToldPart(subscription), eventPart('subscription.expired', owner, subscriptionData(subscription))]);
        if (written.ok) report.expired++;
        continue;
      }
      const noticeDays = (await settingsOf(subscription.tenantId)).expiryNoticeDays;
      if (expiringToldFor === subscription.expiresAt || subscription.expiresAt - now > noticeDays * DAY) continue;
      const daysLeft = Math.ceil((subscription.expiresAt - now) / DAY);
      const written = await transactWrite([expiringToldPart(subscription), eventPart('subscription.expiring', owner, { ...subscriptionData(subscription), days_left: daysLeft })]);
      if (written.ok) report.expiring++;
    } catch (error) {
      // Still due: the next pass looks again.
      logger.warn('Subscription notice failed', { userId: subscription.userId, error: error as Error });
    }
  }
  return report;
}
