/**
 * Payment holds. An add takes its payment before Apple is called: one transaction debits the balance (or
 * claims the activation code) under its condition and records the hold. The add's final transaction then
 * completes the hold, or the add releases it, which refunds exactly what was held; both are conditional on
 * the hold still being `held`, so a hold is settled once whatever retries or sweeps run.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { updateIf } from '../conditional-write';
import { documentClient } from '../client';
import { tableName } from '../tables';
import { transactionPart, transactWrite, type TransactionPart } from '../transactions';
import { balanceCreditPart, balanceDebitPart } from './balance-repository';
import { codeReleasePart, codeUsePart } from './code-repository';
import type { ActivationCode } from '../../domain/pricing/activation-code';
import type { Charge } from '../../domain/reservations/reservation';

export interface PaymentHold {
  holdId: string;
  userId: string;
  tenantId: string;
  udid: string;
  charge: Exclude<Charge, { kind: 'free' }>;
  createdAt: number;
  /**
   * Slot notes (`slotNote`): accounts where the add reserved a slot that is not yet accounted for (by the add's final write, a slot
   * given back, or a kept registration). A hold left by an add that died names where to look.
   */
  slotAccounts?: string[];
}

const QUEUE = 'held';
/** Settled holds stay readable for a day (support questions), then DynamoDB deletes them. */
const SETTLED_TTL_SECONDS = 24 * 60 * 60;

function holdPut(hold: PaymentHold): TransactionPart {
  return transactionPart({
    Put: {
      TableName: tableName('paymentHolds'),
      Item: { hold_id: hold.holdId, user_id: hold.userId, tenant_id: hold.tenantId, udid: hold.udid, charge: hold.charge, created_at: hold.createdAt, state: 'held', queue: QUEUE },
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

/**
 * Takes the payment and records the hold in one transaction. False when the balance is short or the code
 * was claimed first (nothing changed).
 */
export async function takeHold(hold: PaymentHold, code: ActivationCode | undefined): Promise<boolean> {
  const take = hold.charge.kind === 'balance' ? balanceDebitPart(hold.userId, hold.charge.amount) : codeUsePart(code!, hold.userId, hold.createdAt);
  return (await transactWrite([take, holdPut(hold)])).ok;
}

/** What completes the hold inside the add's final transaction. */
export function holdCompletePart(holdId: string, at: number): TransactionPart {
  return settle(holdId, 'completed', at);
}

/** What gives a charge back: the credit of a balance debit, or the code made usable again; nothing for a free one. */
export function refundPart(charge: PaymentHold['charge'], userId: string): TransactionPart;
export function refundPart(charge: Charge, userId: string): TransactionPart | undefined;
export function refundPart(charge: Charge, userId: string): TransactionPart | undefined {
  if (charge.kind === 'balance') return balanceCreditPart(userId, charge.amount);
  if (charge.kind === 'code') return codeReleasePart(charge.code);
  return undefined;
}

/**
 * Refunds exactly the held payment and marks the hold released. False when the hold was already settled
 * (completed by its add, or released by an earlier call): then nothing changes.
 */
export async function releaseHold(hold: Pick<PaymentHold, 'holdId' | 'userId' | 'charge'>, at: number): Promise<boolean> {
  return (await transactWrite([settle(hold.holdId, 'released', at), refundPart(hold.charge, hold.userId)])).ok;
}

/** Holds still held that were taken before `before` (epoch seconds): what crashed adds left behind. */
export async function listStaleHolds(before: number, limit: number): Promise<PaymentHold[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('paymentHolds'),
      IndexName: 'by-queue',
      KeyConditionExpression: 'queue = :q AND created_at < :before',
      ExpressionAttributeValues: { ':q': QUEUE, ':before': before },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => ({
    holdId: String(i.hold_id),
    userId: String(i.user_id),
    tenantId: String(i.tenant_id),
    udid: String(i.udid),
    charge: i.charge as PaymentHold['charge'],
    createdAt: Number(i.created_at),
    slotAccounts: i.slot_accounts instanceof Set ? [...(i.slot_accounts as Set<string>)] : [],
  }));
}

/** A slot note: `<account id>|<device class>`. */
export const slotNote = (accountId: string, deviceClass: string) => `${accountId}|${deviceClass}`;

export function parseSlotNote(note: string): { accountId: string; deviceClass: string } {
  const [accountId = '', deviceClass = 'iphone'] = note.split('|');
  return { accountId, deviceClass };
}

/** The add reserved a slot on `accountId` (only while the hold is held: afterwards nobody needs to know). */
export async function noteSlotReserved(holdId: string, note: string): Promise<void> {
  await updateIf({
    TableName: tableName('paymentHolds'),
    Key: { hold_id: holdId },
    UpdateExpression: 'ADD slot_accounts :a',
    ConditionExpression: '#state = :held',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':a': new Set([note]), ':held': 'held' },
  });
}

/**
 * The slot on `accountId` is accounted for. True for exactly one caller: whoever removes the note acts on the
 * slot (the add that gave it back, or the sweep), so a slot is never given back twice.
 */
export async function noteSlotSettled(holdId: string, note: string): Promise<boolean> {
  return (
    await updateIf({
      TableName: tableName('paymentHolds'),
      Key: { hold_id: holdId },
      UpdateExpression: 'DELETE slot_accounts :a',
      ConditionExpression: 'contains(slot_accounts, :id)',
      ExpressionAttributeValues: { ':a': new Set([note]), ':id': note },
    })
  ).written;
}
