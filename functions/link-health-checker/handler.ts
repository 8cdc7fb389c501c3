/** Scheduled (EventBridge): probes the download links of every source whose link-health check is due. */
import { nowSeconds } from '../../shared/clock';
import { runLinkHealthChecker } from '../../shared/domain/link-health/checker';
import { logger } from '../../shared/logger';

export const handler = async () => {
  const report = await runLinkHealthChecker(nowSeconds());
  logger.info('Link-health checker pass', { ...report });
  return report;
};
