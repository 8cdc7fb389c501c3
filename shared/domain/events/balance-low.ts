/**
 * `balance.low`, from the reservation worker's schedule: the pass reads only the users whose balance moved
 * since it last looked (the sparse `by-balance-check` index), so its cost follows the debits and credits, not
 * the number of users. Once per crossing: the notice mark is set with the event and cleared when the balance
 * is back at or above the threshold.
 */
import { balanceLowNoticePart, clearBalanceLowNotice, listBalancesToCheck, markBalanceChecked } from '../../db/repositories/balance-watch-repository';
import { transactWrite } from '../../db/transactions';
import { logger } from '../../logger';
import { eventPart } from './outbox';
import { agentBalanceLowPart } from './agent-events';

const USERS_PER_PASS = 200;

export interface BalanceLowReport {
  looked: number;
  notified: number;
}

export async function runBalanceLowPass(now: number): Promise<BalanceLowReport> {
  const report: BalanceLowReport = { looked: 0, notified: 0 };
  for (const watched of await listBalancesToCheck(USERS_PER_PASS)) {
    report.looked++;
    const below = watched.threshold > 0 && watched.balance < watched.threshold;
    try {
      if (below && watched.notifiedAt === 0) {
        const owner = { tenantId: watched.tenantId, userId: watched.userId };
        const parent = watched.upline[watched.upline.length - 1];
        // An agent's parent is told too, in the same write (agent-events.ts).
        const toParent = parent ? [agentBalanceLowPart({ tenantId: watched.tenantId, userId: parent }, { userId: watched.userId, level: watched.upline.length, balance: watched.balance, threshold: watched.threshold })] : [];
        const written = await transactWrite([balanceLowNoticePart(watched.userId, now), eventPart('balance.low', owner, { balance: watched.balance, threshold: watched.threshold }), ...toParent]);
        if (written.ok) report.notified++;
      } else if (below) {
        await markBalanceChecked(watched.userId);
      } else {
        await clearBalanceLowNotice(watched.userId);
      }
    } catch (error) {
      // Left marked: the next pass looks again.
      logger.warn('Low-balance check failed', { userId: watched.userId, error: error as Error });
    }
  }
  return report;
}
