/** Scheduled (EventBridge): marks certificates of revoked or expired Apple accounts, one run at a time. */
import { runRevocationSweep } from '../../shared/domain/accounts/revocation-sweep';
import { scheduledJob } from '../../shared/jobs/scheduled-job';
import { logger, withLambdaContext } from '../../shared/logger';

export const handler = withLambdaContext(
  scheduledJob('revocation-sweep', async ({ now, budgetMs }) => {
  const report = await runRevocationSweep(now, { budgetMs });
  logger.info('Revocation sweep pass', { ...report, revokedAccounts: report.revokedAccounts.join(',') });
  return report;
}),
);
