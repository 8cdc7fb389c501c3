/**
 * `balance.low`, from the reservation worker's schedule: the pass reads only the users whose balance moved
 * since it last looked (the sparse `by-balance-check` index), so its cost follows the debits and credits, not
 * the number of users. Two thresholds are watched: the user's own (`balance.low` to the user) and, for an agent,
 * the one its parent set for it (`agent.balance_low` to the parent). Once per crossing each: its mark is set with
 * its event and cleared when the balance is back at or above that threshold.
 */
import { balanceWatchPart, listBalancesToCheck } from '../../db/repositories/balance-watch-repository';
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
    const parent = watched.upline[watched.upline.length - 1];
    const belowParents = parent !== undefined && watched.agentThreshold > 0 && watched.balance < watched.agentThreshold;
    const decision = { notifyOwn: below && watched.notifiedAt === 0, notifyParent: belowParents && watched.agentNotifiedAt === 0, clearOwn: !below && watched.notifiedAt !== 0, clearParent: !belowParents && watched.agentNotifiedAt !== 0 };
    const owner = { tenantId: watched.tenantId, userId: watched.userId };
    const events = [
      ...(decision.notifyOwn ? [eventPart('balance.low', owner, { balance: watched.balance, threshold: watched.threshold })] : []),
      // An agent's parent is told by the threshold it set for the agent (agent-events.ts).
      ...(decision.notifyParent ? [agentBalanceLowPart({ tenantId: watched.tenantId, userId: parent! }, { userId: watched.userId, level: watched.upline.length, balance: watched.balance, threshold: watched.agentThreshold })] : []),
    ];
    try {
      // One write: the marks and the events together, or nothing (the user stays due for the next pass).
      const written = await transactWrite([balanceWatchPart(watched, decision, now), ...events]);
      if (written.ok && events.length > 0) report.notified += events.length;
    } catch (error) {
      // Left marked: the next pass looks again.
      logger.warn('Low-balance check failed', { userId: watched.userId, error: error as Error });
    }
  }
  return report;
}
