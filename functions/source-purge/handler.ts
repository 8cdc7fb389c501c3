/** Scheduled (EventBridge): removes what deleted sources still hold when their delete could not finish it. */
import { runSourcePurge } from '../../shared/domain/sources/source-purge';
import { scheduledJob } from '../../shared/jobs/scheduled-job';
import { logger, withLambdaContext } from '../../shared/logger';

export const handler = withLambdaContext(
  scheduledJob('source-purge', async ({ budgetMs }) => {
    const report = await runSourcePurge({ budgetMs });
    logger.info('Source purge pass', { ...report });
    return report;
  }),
);
