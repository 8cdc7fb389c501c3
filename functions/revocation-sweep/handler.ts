/** Scheduled (EventBridge): marks certificates of revoked or expired Apple accounts. */
import { nowSeconds } from '../../shared/clock';
import { runRevocationSweep } from '../../shared/domain/accounts/revocation-sweep';
import { logger, withLambdaContext } from '../../shared/logger';

export const handler = withLambdaContext(async () => {
  const report = await runRevocationSweep(nowSeconds());
  logger.info('Revocation sweep pass', { ...report, revokedAccounts: report.revokedAccounts.join(',') });
  return report;
});
