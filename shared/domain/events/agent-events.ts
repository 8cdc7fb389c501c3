/**
 * Events about agents, sent to the resellers above them (shared/domain/agents), each a part of the transaction
 * that makes the change it reports:
 *
 * - `agent.device_added` — an agent's add delivered (the add's final write, or the reservation worker's issue
 *   of a review), to every level above the agent: the agent and its level, the certificate, and this level's
 *   money (`credit` the price below, `cost` its own, `margin`). Never the certificate's files.
 * - `agent.balance_low` — an agent's balance fell below its threshold, to its parent (balance-low.ts).
 */
import type { TransactionPart } from '../../db/transactions';
import type { UplineShare } from '../../records/reservation';
import { eventPart } from './outbox';

interface AddedDevice {
  kid: string;
  udid: string;
  type: string;
  tenant_id: string;
  user_id: string;
  /** The warranty tier, where the writer knows it (a review's issue does not). */
  shtype?: number;
}

export function agentAddedParts(device: AddedDevice, mode: 'instant' | 'review', upline: readonly UplineShare[]): TransactionPart[] {
  const agentLevel = (upline[0]?.level ?? 0) + 1;
  return upline.map((share) =>
    eventPart('agent.device_added', { tenantId: device.tenant_id, userId: share.userId }, {
      agent_id: device.user_id,
      agent_level: agentLevel,
      kid: device.kid,
      udid: device.udid,
      type: device.type,
      mode,
      ...(device.shtype !== undefined ? { warranty: device.shtype } : {}),
      credit: share.credit,
      cost: share.cost,
      margin: share.credit - share.cost,
    }),
  );
}

export function agentBalanceLowPart(parent: { tenantId: string; userId: string }, agent: { userId: string; level: number; balance: number; threshold: number }): TransactionPart {
  return eventPart('agent.balance_low', parent, { agent_id: agent.userId, agent_level: agent.level, balance: agent.balance, threshold: agent.threshold });
}
