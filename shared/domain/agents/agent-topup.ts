/**
 * A parent's top-up of its agent: both ledgers in one transaction (shared/domain/ledger's `writeLedgerMoves`).
 */
import type { Tenant } from '../../records/tenant';
import type { TokenOwner } from '../../records/user';
import { DomainError } from '../errors';
import { writeLedgerMoves } from '../ledger/ledger';
import { agentOf, caller, notFound } from './agent-access';
import { requireActive } from './agent-service';

/**
 * Moves `amount` cents from the parent's balance to its agent's, both ledger entries in one transaction: the
 * parent's `agent_topup` (naming the agent) and the agent's `topup`. Refused, with nothing moved, when the
 * parent's balance does not cover it at the moment of the write, however many adds and top-ups race.
 */
export async function topUpAgent(owner: TokenOwner, tenant: Tenant, agentId: string, amount: number, now: number) {
  const parent = await caller(owner, tenant);
  requireActive(parent);
  const agent = await agentOf(parent, agentId);
  const outcome = await writeLedgerMoves({
    users: [
      { userId: parent.userId, changes: () => [{ amount: -amount, kind: 'agent_topup', ref: { agent_id: agent.userId }, at: now }] },
      { userId: agent.userId, changes: () => [{ amount, kind: 'topup', ref: {}, at: now }] },
    ],
  });
  if (!outcome.ok) {
    if (outcome.reason === 'not_covered') {
      throw new DomainError('conflict', 'topup_not_covered', { params: { amount: (amount / 100).toFixed(2), balance: (outcome.head.balance / 100).toFixed(2) }, data: { amount, balance: outcome.head.balance } });
    }
    throw notFound();
  }
  return { balance: outcome.after.get(parent.userId)!.balance, agent: { agent_id: agent.userId, balance: outcome.after.get(agent.userId)!.balance } };
}

