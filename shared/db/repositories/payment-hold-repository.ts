/**
 * Payment holds. An add takes its payment before Apple is called: one transaction debits the balance (or
 * claims the activation code) under its condition, writes the ledger's charge entry and records the hold
 * (shared/domain/ledger/charges.ts builds it from these parts). The add's final transaction then
 * completes the hold, or the add releases it, which refunds exactly what was held; both are conditional on
 * the hold still being `held`, so a hold is settled once whatever retries or sweeps run. A free add holds
 * nothing but still records a hold: its notes of the slots it reserved (registration-slot-repository.ts writes
 * them) are what the stale-hold sweep settles.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import { queueHead } from '../work-queue';
import { snakeCaseFields } from '../../snake-case-fields';
import type { Charge } from '../../records/reservation';
import type { DevicePool } from '../../records/device';

export interface PaymentHold {
  holdId: string;
  userId: string;
  tenantId: string;
  udid: string;
  /** `free`: a free add's hold, which takes nothing and is there for its slot notes. */
  charge: Charge;
  createdAt: number;
  /** What the add will deliver, named before it is paid for, so the ledger's charge entry can say it. */
  kid?: string;
  reservationId?: string;
  mode?: 'instant' | 'review';
  tier?: number;
  /** The pool the add was for: a registration the sweep keeps for a dead add goes in that pool's list. */
  pool?: DevicePool;
  /**
   * Slot notes (`slotNote`, records/registration.ts): accounts where the add reserved a slot that is not yet accounted for (by the add's final write, a slot
   * given back, or a kept registration). A hold left by an add that died names where to look.
   */
  slotAccounts?: string[];
}

const QUEUE = 'held';

/** The hold's own fields; `slot_accounts` is a string set of its own, written and cleared by the slot notes. */
const stored = snakeCaseFields<PaymentHold>()(['holdId', 'userId', 'tenantId', 'udid', 'charge', 'createdAt', 'kid', 'reservationId', 'mode', 'tier', 'pool']);
/** Settled holds stay readable for a day (support questions), then DynamoDB deletes them. */
const SETTLED_TTL_SECONDS = 24 * 60 * 60;

function holdPut(hold: PaymentHold): TransactionPart {
  return transactionPart({
    Put: {
      TableName: tableName('paymentHolds'),
      Item: {
        ...stored.toSnake(hold),
        state: 'held',
        queue: QUEUE,
      },
      ConditionExpression: 'attribute_not_exists(hold_id)',
    },
  });
}

function settle(holdId: string, state: 'completed' | 'released', at: number): TransactionPart {
  return transactionPart({
    Update: {
      TableName: tableName('paymentHolds'),
      Key: { hold_id: holdId },
      UpdateExpression: 'SET #state = :to, settled_at = :at, expires_at = :exp REMOVE queue',
      ConditionExpression: '#state = :held',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':to': state, ':held': 'held', ':at': at, ':exp': at + SETTLED_TTL_SECONDS },
    },
  });
}

/** The hold's record, on the condition that it is new: a part of the transaction that takes the payment (shared/domain/ledger). */
export function holdPutPart(hold: PaymentHold): TransactionPart {
  return holdPut(hold);
}

/** What completes the hold inside the add's final transaction. */
export function holdCompletePart(holdId: string, at: number): TransactionPart {
  return settle(holdId, 'completed', at);
}

/** What marks the hold released, in the transaction that refunds it; fails when it was already settled. */
export function holdReleasePart(holdId: string, at: number): TransactionPart {
  return settle(holdId, 'released', at);
}

/** The hold as stored, or undefined (never taken, or settled more than a day ago). */
export async function getHold(holdId: string): Promise<(PaymentHold & { state: 'held' | 'completed' | 'released' }) | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('paymentHolds'), Key: { hold_id: holdId }, ConsistentRead: true }));
  return out.Item ? { ...holdFromItem(out.Item), state: out.Item.state as 'held' | 'completed' | 'released' } : undefined;
}

function holdFromItem(i: Record<string, unknown>): PaymentHold {
  return { ...stored.fromSnake(i), slotAccounts: i.slot_accounts instanceof Set ? [...(i.slot_accounts as Set<string>)] : [] };
}

/** Holds still held that were taken before `before` (epoch seconds): what crashed adds left behind. */
export async function listStaleHolds(before: number, limit: number): Promise<PaymentHold[]> {
  const items = await queueHead({ table: 'paymentHolds', index: 'by-queue', queue: ['queue', QUEUE], due: ['created_at', '<', before], limit });
  return items.map(holdFromItem);
}
