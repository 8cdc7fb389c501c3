/** Scheduled (EventBridge): retries the webhook deliveries that are due, one run at a time. */
import { runDispatchPass } from '../../shared/domain/events/dispatcher';
import { scheduledJob } from '../../shared/jobs/scheduled-job';
import { logger, withLambdaContext } from '../../shared/logger';

export const handler = withLambdaContext(
  scheduledJob('event-retry', async ({ now, budgetMs }) => {
    const report = await runDispatchPass(now, { budgetMs });
    logger.info('Event retry pass', { ...report });
    return report;
  }),
);
