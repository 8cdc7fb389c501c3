/** Scheduled (EventBridge): advances due review-mode reservations, then sends due low-balance events; one run at a time. */
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { runBalanceLowPass } from '../../shared/domain/events/balance-low';
import { scheduledJob } from '../../shared/jobs/scheduled-job';
import { logger, withLambdaContext } from '../../shared/logger';

export const handler = withLambdaContext(
  scheduledJob('reservation-worker', async ({ now, budgetMs }) => {
  const report = await runReservationWorker(now, { budgetMs });
  const balances = await runBalanceLowPass(now);
  logger.info('Reservation worker pass', { ...report, balancesLooked: balances.looked, balanceLowNotices: balances.notified });
  return { ...report, balances };
}),
);
