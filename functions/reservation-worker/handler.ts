/** Scheduled (EventBridge): advances due review-mode reservations. */
import { nowSeconds } from '../../shared/clock';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { logger } from '../../shared/logger';

export const handler = async () => {
  const report = await runReservationWorker(nowSeconds());
  logger.info('Reservation worker pass', { ...report });
  return report;
};
