/**
 * Scheduled (EventBridge): advances due review-mode reservations, then writes the due low-balance and
 * subscription-end events, then goes on with the running certificate renewals of Apple accounts (their
 * devices' new profiles, too many for the request that started them) with the time left; one run at a time.
 *
 * Also the target of the functions' log group subscription (infra/cdk/download-counts.ts): a batch of the
 * download gate's lines, told apart by its shape (`awslogs`), is summed per app and day (once per batch) and
 * nothing else runs; it takes no lease, so it never waits for nor skips a pass of the job.
 * What this function logs must never carry a `download.app` field: the subscription would feed it its own lines.
 */
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { runAccountRenewals } from '../../shared/domain/accounts/renewal-job';
import { runBalanceLowPass } from '../../shared/domain/events/balance-low';
import { runSubscriptionNoticePass } from '../../shared/domain/events/subscription-notices';
import { countLogBatch, isLogsSubscriptionEvent } from '../../shared/domain/stats/download-counts';
import { nowSeconds } from '../../shared/clock';
import { scheduledJob } from '../../shared/jobs/scheduled-job';
import { logger, withLambdaContext } from '../../shared/logger';
// The stores this function's rules reach, wired once when it loads.
import '../../shared/stores/ledger';
import '../../shared/stores/slots';
import '../../shared/stores/transactions';

const pass = scheduledJob('reservation-worker', async ({ now, budgetMs }) => {
  const startedAt = Date.now();
  const report = await runReservationWorker(now, { budgetMs });
  const balances = await runBalanceLowPass(now);
  const subscriptions = await runSubscriptionNoticePass(now);
  const renewals = await runAccountRenewals(now, { budgetMs: Math.max(0, budgetMs - (Date.now() - startedAt)) });
  logger.info('Reservation worker pass', { ...report, balancesLooked: balances.looked, balanceLowNotices: balances.notified, subscriptions, renewals });
  return { ...report, balances, subscriptions, renewals };
});

export const handler = withLambdaContext(async (event, context) => {
  if (!isLogsSubscriptionEvent(event)) return pass(event, context);
  // A failure throws: Lambda sends the batch to the failure queue, from where it can be sent again (it counts once).
  const counted = await countLogBatch(event, nowSeconds());
  logger.info('Download lines counted', { downloadLines: counted.lines, appDays: counted.keys });
  return counted;
});
