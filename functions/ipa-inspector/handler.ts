/** Scheduled (EventBridge): reads the IPAs that were too large or slow to read within a request. */
import { runIpaInspector } from '../../shared/domain/ipa/inspection-job';
import { scheduledJob } from '../../shared/jobs/scheduled-job';
import { logger, withLambdaContext } from '../../shared/logger';

export const handler = withLambdaContext(
  scheduledJob('ipa-inspector', async ({ now, budgetMs }) => {
    const report = await runIpaInspector(now, { budgetMs });
    logger.info('IPA inspector pass', { ...report });
    return report;
  }),
);
