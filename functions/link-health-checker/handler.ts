/** Scheduled (EventBridge): probes the download links of every source whose link-health check is due, one run at a time. */
import { runLinkHealthChecker } from '../../shared/domain/link-health/checker';
import { scheduledJob } from '../../shared/jobs/scheduled-job';
import { logger, withLambdaContext } from '../../shared/logger';

export const handler = withLambdaContext(
  scheduledJob('link-health-checker', async ({ now, budgetMs }) => {
  const report = await runLinkHealthChecker(now, { budgetMs });
  logger.info('Link-health checker pass', { ...report });
  return report;
}),
);
