/**
 * The low-balance watch on user items: `balance_low_threshold` (cents; the user's setting), `balance_low_at`
 * (set while a `balance.low` event has been sent for the current stay below it) and `balance_check` (the
 * sparse `by-balance-check` index: set by every debit and credit, removed by the pass once it has looked).
 * Each write of the pass is conditional on the balance it acts on, so a debit or credit landing meanwhile
 * leaves `balance_check` for the next pass instead of being lost.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import type { TransactionPart } from '../transactions';
import { updatePart, itemUpdate } from '../item-update';

export const BALANCE_CHECK_DUE = 'due';

export interface WatchedBalance {
  userId: string;
  tenantId: string;
  balance: number;
  /** 0 = off. */
  threshold: number;
  notifiedAt: number;
  /** An agent's resellers above it, its parent last (empty for a reseller of the operator). */
  upline: string[];
  /** An agent's threshold as its parent set it (0 = off), and when its parent was last told (0 = not told). */
  agentThreshold: number;
  agentNotifiedAt: number;
}

/** What the pass decided for one user: which crossing to note (with its event), and which marks to clear. */
export interface BalanceWatchDecision {
  notifyOwn: boolean;
  notifyParent: boolean;
  clearOwn: boolean;
  clearParent: boolean;
}

/** Users whose balance moved since the last pass (at most `limit`). */
export async function listBalancesToCheck(limit: number): Promise<WatchedBalance[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('users'),
      IndexName: 'by-balance-check',
      KeyConditionExpression: 'balance_check = :due',
      ExpressionAttributeValues: { ':due': BALANCE_CHECK_DUE },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => ({
    userId: String(i.user_id),
    tenantId: String(i.tenant_id),
    balance: Number(i.balance ?? 0),
    threshold: Number(i.balance_low_threshold ?? 0),
    notifiedAt: Number(i.balance_low_at ?? 0),
    upline: Array.isArray(i.upline) ? i.upline.map(String) : [],
    agentThreshold: Number(i.agent_low_threshold ?? 0),
    agentNotifiedAt: Number(i.agent_low_at ?? 0),
  }));
}

/**
 * The pass's one write for a user: the marks it decided (set with the events of a crossing, cleared when back
 * above) and `balance_check` removed — only while the balance, both thresholds and both marks are as it read
 * them, so a debit, credit or threshold change landing meanwhile leaves the user for the next pass.
 */
export function balanceWatchPart(watched: WatchedBalance, decision: BalanceWatchDecision, at: number): TransactionPart {
  const sets: string[] = [];
  const removes = ['balance_check'];
  if (decision.notifyOwn) sets.push('balance_low_at = :at');
  if (decision.notifyParent) sets.push('agent_low_at = :at');
  if (decision.clearOwn) removes.push('balance_low_at');
  if (decision.clearParent) removes.push('agent_low_at');
  const values: Record<string, unknown> = { ':b': watched.balance, ':zero': 0 };
  const when = ['balance = :b'];
  const threshold = (attribute: string, value: number, name: string) => {
    if (value > 0) {
      values[name] = value;
      when.push(`${attribute} = ${name}`);
    } else when.push(`(attribute_not_exists(${attribute}) OR ${attribute} <= :zero)`);
  };
  threshold('balance_low_threshold', watched.threshold, ':t');
  threshold('agent_low_threshold', watched.agentThreshold, ':at_threshold');
  when.push(watched.notifiedAt === 0 ? 'attribute_not_exists(balance_low_at)' : 'attribute_exists(balance_low_at)');
  when.push(watched.agentNotifiedAt === 0 ? 'attribute_not_exists(agent_low_at)' : 'attribute_exists(agent_low_at)');
  if (sets.length > 0) values[':at'] = at;
  return updatePart('users', { user_id: watched.userId }, { change: `${sets.length > 0 ? `SET ${sets.join(', ')} ` : ''}REMOVE ${removes.join(', ')}`, when: when.join(' AND '), values });
}

/** Sets the user's threshold (0 turns it off) and asks the next pass to look at once. */
export async function setBalanceLowThreshold(userId: string, cents: number): Promise<void> {
  await updateIf(itemUpdate('users', { user_id: userId }, {
    change: 'SET balance_low_threshold = :t, balance_check = :due',
    when: 'attribute_exists(user_id)',
    values: { ':t': cents, ':due': BALANCE_CHECK_DUE },
  }));
}

export async function getBalanceLowThreshold(userId: string): Promise<number> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('users'), Key: { user_id: userId }, ProjectionExpression: 'balance_low_threshold' }));
  return Number(out.Item?.balance_low_threshold ?? 0);
}
