/**
 * Scheduled (EventBridge): advances due review-mode reservations, then writes the due low-balance and
 * subscription-end events, then goes on with the running certificate renewals of Apple accounts (their
 * devices' new profiles, too many for the request that started them) with the time left; one run at a time.
 */
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { runAccountRenewals } from '../../shared/domain/accounts/renewal-job';
import { runBalanceLowPass } from '../../shared/domain/events/balance-low';
import { runSubscriptionNoticePass } from '../../shared/domain/events/subscription-notices';
import { scheduledJob } from '../../shared/jobs/scheduled-job';
import { logger, withLambdaContext } from '../../shared/logger';
// The stores this function's rules reach, wired once when it loads.
import '../../shared/stores/ledger';
import '../../shared/stores/slots';
import '../../shared/stores/transactions';

export const handler = withLambdaContext(
  scheduledJob('reservation-worker', async ({ now, budgetMs }) => {
  const startedAt = Date.now();
  const report = await runReservationWorker(now, { budgetMs });
  const balances = await runBalanceLowPass(now);
  const subscriptions = await runSubscriptionNoticePass(now);
  const renewals = await runAccountRenewals(now, { budgetMs: Math.max(0, budgetMs - (Date.now() - startedAt)) });
  logger.info('Reservation worker pass', { ...report, balancesLooked: balances.looked, balanceLowNotices: balances.notified, subscriptionNotices: subscriptions, renewals });
  return { ...report, balances, subscriptions, renewals };
}),
);
