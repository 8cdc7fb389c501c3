/**
 * Reservations. `queue = "pending"` is present only while a reservation waits, so the worker's index holds
 * live work only; every state change is conditional on still being pending, so two workers never both finish
 * (or both refund) one reservation.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import { queueHead } from '../work-queue';
import type { Reservation } from '../../records/reservation';
import { snakeCaseFields, type SnakeCased } from '../../snake-case-fields';
import { updatePart, itemUpdate } from '../item-update';

const PENDING_QUEUE = 'pending';

type ReservationItem = SnakeCased<Reservation> & { queue?: string };

const stored = snakeCaseFields<Reservation>()(['reservationId', 'status', 'tenantId', 'userId', 'kid', 'accountId', 'appleDeviceId', 'udid', 'deviceClass', 'charge', 'createdAt', 'nextCheckAt', 'attempts', 'failureReason']);

/** `queue` exists only while the reservation waits: the worker's index holds live work only. */
const toItem = (r: Reservation): ReservationItem => ({ ...stored.toSnake(r), ...(r.status === 'pending' ? { queue: PENDING_QUEUE } : {}) });
const fromItem = (item: ReservationItem): Reservation => stored.fromSnake(item);

export function reservationPutPart(reservation: Reservation): TransactionPart {
  return transactionPart({ Put: { TableName: tableName('reservations'), Item: toItem(reservation), ConditionExpression: 'attribute_not_exists(reservation_id)' } });
}

export async function getReservation(reservationId: string): Promise<Reservation | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('reservations'), Key: { reservation_id: reservationId }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item as ReservationItem) : undefined;
}

/** Pending reservations due at `nowSeconds`, oldest due first. */
export async function listDueReservations(nowSeconds: number, limit = 100): Promise<Reservation[]> {
  const items = await queueHead({ table: 'reservations', index: 'by-next-check', queue: ['queue', PENDING_QUEUE], due: ['next_check_at', '<=', nowSeconds], limit });
  return items.map((i) => fromItem(i as ReservationItem));
}

/** The reservation leaves the queue as `issued` or `failed`; fails the transaction if it already left. */
export function reservationFinishPart(reservationId: string, status: 'issued' | 'failed', at: number, reason?: string): TransactionPart {
  return updatePart('reservations', { reservation_id: reservationId }, {
    change: `SET #s = :s, finished_at = :at${reason ? ', failure_reason = :r' : ''} REMOVE #q`,
    when: '#q = :pending',
    values: { ':s': status, ':at': at, ':pending': PENDING_QUEUE, ...(reason ? { ':r': reason } : {}) },
    names: { '#s': 'status', '#q': 'queue' },
  });
}

/** Still PROCESSING: look again later. Returns false when another worker already finished it. */
export async function postponeReservation(reservationId: string, nextCheckAt: number): Promise<boolean> {
  const out = await updateIf(itemUpdate('reservations', { reservation_id: reservationId }, {
    change: 'SET next_check_at = :n ADD attempts :one',
    when: '#q = :pending',
    values: { ':n': nextCheckAt, ':one': 1, ':pending': PENDING_QUEUE },
    names: { '#q': 'queue' },
  }));
  return out.written;
}
