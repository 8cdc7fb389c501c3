/**
 * Possible registrations: slots an add kept because it does not know whether Apple registered the device
 * (the registration's answer was lost or came too late, and a lookup did not find it yet). One record per
 * account, device class and UDID — Apple holds at most one registration of a UDID per team — counting the
 * slots still kept for it. Stored in the payment-holds table (`hold_id` = `possible#…`, queue `possible`),
 * where the reservation worker already looks for what adds left unsettled; uncharged, so no money here.
 *
 * A later add that finds the registration with no row pointing at it takes one slot over (`claimPossible`);
 * the worker settles the rest once old enough (`listDuePossible`, `settlePossiblePart`).
 */
import { tableName } from '../table-names';
import { queueHead } from '../work-queue';
import { transactionPart, transactWrite, type TransactionPart } from '../transactions';
import { slotReleasePart } from './account-repository';
import type { DeviceClass } from '../../domain/accounts/account';
import type { DevicePool } from '../../domain/devices/device';

export interface PossibleRegistration {
  accountId: string;
  deviceClass: DeviceClass;
  udid: string;
  /** Whose add it was last: a registration kept by the worker becomes this user's failed row. */
  tenantId: string;
  userId: string;
  pool: DevicePool;
  /** Slots still kept for it. */
  slots: number;
  /** When an add last kept a slot for it (epoch seconds). */
  notedAt: number;
}

const QUEUE = 'possible';
/** Settled records stay readable for a day (support questions), then DynamoDB deletes them. */
const SETTLED_TTL_SECONDS = 24 * 60 * 60;

const keyOf = (accountId: string, deviceClass: DeviceClass, udid: string) => ({ hold_id: `possible#${accountId}#${deviceClass}#${udid.toUpperCase()}` });

/** The add keeps the slot it reserved on the account: a part of the write that also settles the hold's note. */
export function notePossiblePart(possible: Omit<PossibleRegistration, 'slots'>): TransactionPart {
  return transactionPart({
    Update: {
      TableName: tableName('paymentHolds'),
      Key: keyOf(possible.accountId, possible.deviceClass, possible.udid),
      UpdateExpression: 'SET #queue = :q, created_at = :at, account_id = :a, device_class = :c, udid = :u, tenant_id = :t, user_id = :user, #pool = :p ADD #slots :one REMOVE expires_at',
      ExpressionAttributeNames: { '#queue': 'queue', '#pool': 'pool', '#slots': 'slots' },
      ExpressionAttributeValues: {
        ':q': QUEUE,
        ':at': possible.notedAt,
        ':a': possible.accountId,
        ':c': possible.deviceClass,
        ':u': possible.udid,
        ':t': possible.tenantId,
        ':user': possible.userId,
        ':p': possible.pool,
        ':one': 1,
      },
    },
  });
}

/**
 * An add found the registration with no row pointing at it: it was made by an add that gave up on it, so
 * one slot kept for it goes back in the same write, and the finding add counts the registration on its own
 * reserved slot. False when no slot is kept for it (nothing to take over).
 */
export async function claimPossible(accountId: string, deviceClass: DeviceClass, udid: string): Promise<boolean> {
  const outcome = await transactWrite([
    transactionPart({
      Update: {
        TableName: tableName('paymentHolds'),
        Key: keyOf(accountId, deviceClass, udid),
        UpdateExpression: 'SET #slots = #slots - :one',
        ConditionExpression: '#slots > :zero',
        ExpressionAttributeNames: { '#slots': 'slots' },
        ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
      },
    }),
    slotReleasePart(accountId, deviceClass),
  ]);
  return outcome.ok;
}

/** Records nothing has touched since `before` (epoch seconds): the answers they waited for cannot come any more. */
export async function listDuePossible(before: number, limit: number): Promise<PossibleRegistration[]> {
  const items = await queueHead({ table: 'paymentHolds', index: 'by-queue', queue: ['queue', QUEUE], due: ['created_at', '<', before], limit });
  return items.map((i) => ({
    accountId: String(i.account_id),
    deviceClass: String(i.device_class) as DeviceClass,
    udid: String(i.udid),
    tenantId: String(i.tenant_id),
    userId: String(i.user_id),
    pool: Number(i.pool) as DevicePool,
    slots: Number(i.slots ?? 0),
    notedAt: Number(i.created_at),
  }));
}

/**
 * Settles the record as read (its slot count and time unchanged: an add that kept or took a slot since makes
 * it fail, and the next pass reads it again), giving `release` of its slots back in the same write.
 */
export function settlePossibleParts(possible: PossibleRegistration, release: number, now: number): TransactionPart[] {
  return [
    transactionPart({
      Update: {
        TableName: tableName('paymentHolds'),
        Key: keyOf(possible.accountId, possible.deviceClass, possible.udid),
        UpdateExpression: 'SET #slots = :zero, settled_at = :now, expires_at = :exp REMOVE #queue',
        ConditionExpression: '#slots = :n AND created_at = :at',
        ExpressionAttributeNames: { '#slots': 'slots', '#queue': 'queue' },
        ExpressionAttributeValues: { ':zero': 0, ':now': now, ':exp': now + SETTLED_TTL_SECONDS, ':n': possible.slots, ':at': possible.notedAt },
      },
    }),
    ...(release > 0 ? [slotReleasePart(possible.accountId, possible.deviceClass, release)] : []),
  ];
}
