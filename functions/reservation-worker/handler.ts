/** Scheduled (EventBridge): advances due review-mode reservations, one run at a time. */
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { scheduledJob } from '../../shared/jobs/scheduled-job';
import { logger, withLambdaContext } from '../../shared/logger';

export const handler = withLambdaContext(
  scheduledJob('reservation-worker', async ({ now, budgetMs }) => {
  const report = await runReservationWorker(now, { budgetMs });
  logger.info('Reservation worker pass', { ...report });
  return report;
}),
);
