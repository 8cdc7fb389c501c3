/**
 * Scheduled (EventBridge): advances due review-mode reservations, then writes the due low-balance and
 * subscription-end events; one run at a time.
 */
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
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
  const report = await runReservationWorker(now, { budgetMs });
  const balances = await runBalanceLowPass(now);
  const subscriptions = await runSubscriptionNoticePass(now);
  logger.info('Reservation worker pass', { ...report, balancesLooked: balances.looked, balanceLowNotices: balances.notified, subscriptionNotices: subscriptions });
  return { ...report, balances, subscriptions };
}),
);
