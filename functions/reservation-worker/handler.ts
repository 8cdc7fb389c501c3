/** Scheduled (EventBridge): advances due review-mode reservations. */
import { nowSeconds } from '../../shared/clock';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { logger, withLambdaContext } from '../../shared/logger';

export const handler = withLambdaContext(async () => {
  const report = await runReservationWorker(nowSeconds());
  logger.info('Reservation worker pass', { ...report });
  return report;
});
