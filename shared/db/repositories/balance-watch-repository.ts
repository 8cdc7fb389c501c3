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
  }));
}

/** The crossing: below the threshold and not yet told. Goes with the event's part in one transaction. */
export function balanceLowNoticePart(userId: string, at: number): TransactionPart {
  return updatePart('users', { user_id: userId }, {
    change: 'SET balance_low_at = :at REMOVE balance_check',
    when: 'balance_low_threshold > :zero AND balance < balance_low_threshold AND attribute_not_exists(balance_low_at)',
    values: { ':at': at, ':zero': 0 },
  });
}

/** Back at or above the threshold (or no threshold): the next crossing will be told again. */
export async function clearBalanceLowNotice(userId: string): Promise<boolean> {
  return (
    await updateIf(itemUpdate('users', { user_id: userId }, {
      change: 'REMOVE balance_low_at, balance_check',
      when: 'attribute_exists(user_id) AND (attribute_not_exists(balance_low_threshold) OR balance_low_threshold <= :zero OR balance >= balance_low_threshold)',
      values: { ':zero': 0 },
    }))
  ).written;
}

/** Still below and already told: nothing to send, only the mark to take away. */
export async function markBalanceChecked(userId: string): Promise<boolean> {
  return (
    await updateIf(itemUpdate('users', { user_id: userId }, {
      change: 'REMOVE balance_check',
      when: 'balance < balance_low_threshold AND attribute_exists(balance_low_at)',
    }))
  ).written;
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
