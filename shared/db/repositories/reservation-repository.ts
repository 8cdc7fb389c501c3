/**
 * Reservations. `queue = "pending"` is present only while a reservation waits, so the worker's index holds
 * live work only; every state change is conditional on still being pending, so two workers never both finish
 * (or both refund) one reservation.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import { transactionPart, type TransactionPart } from '../transactions';
import type { Reservation } from '../../domain/reservations/reservation';

const PENDING_QUEUE = 'pending';

interface ReservationItem {
  reservation_id: string;
  status: Reservation['status'];
  queue?: string;
  tenant_id: string;
  user_id: string;
  kid: string;
  account_id: string;
  apple_device_id: string;
  udid: string;
  device_class: Reservation['deviceClass'];
  charge: Reservation['charge'];
  created_at: number;
  next_check_at: number;
  attempts: number;
  failure_reason?: string;
}

function toItem(r: Reservation): ReservationItem {
  return {
    reservation_id: r.reservationId,
    status: r.status,
    ...(r.status === 'pending' ? { queue: PENDING_QUEUE } : {}),
    tenant_id: r.tenantId,
    user_id: r.userId,
    kid: r.kid,
    account_id: r.accountId,
    apple_device_id: r.appleDeviceId,
    udid: r.udid,
    device_class: r.deviceClass,
    charge: r.charge,
    created_at: r.createdAt,
    next_check_at: r.nextCheckAt,
    attempts: r.attempts,
  };
}

function fromItem(i: ReservationItem): Reservation {
  return {
    reservationId: i.reservation_id,
    status: i.status,
    tenantId: i.tenant_id,
    userId: i.user_id,
    kid: i.kid,
    accountId: i.account_id,
    appleDeviceId: i.apple_device_id,
    udid: i.udid,
    deviceClass: i.device_class,
    charge: i.charge,
    createdAt: i.created_at,
    nextCheckAt: i.next_check_at,
    attempts: i.attempts,
    ...(i.failure_reason ? { failureReason: i.failure_reason } : {}),
  };
}

export function reservationPutPart(reservation: Reservation): TransactionPart {
  return transactionPart({ Put: { TableName: tableName('reservations'), Item: toItem(reservation), ConditionExpression: 'attribute_not_exists(reservation_id)' } });
}

export async function getReservation(reservationId: string): Promise<Reservation | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('reservations'), Key: { reservation_id: reservationId }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item as ReservationItem) : undefined;
}

/** Pending reservations due at `nowSeconds`, oldest due first. */
export async function listDueReservations(nowSeconds: number, limit = 100): Promise<Reservation[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('reservations'),
      IndexName: 'by-next-check',
      KeyConditionExpression: '#q = :q AND next_check_at <= :now',
      ExpressionAttributeNames: { '#q': 'queue' },
      ExpressionAttributeValues: { ':q': PENDING_QUEUE, ':now': nowSeconds },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => fromItem(i as ReservationItem));
}

/** The reservation leaves the queue as `issued` or `failed`; fails the transaction if it already left. */
export function reservationFinishPart(reservationId: string, status: 'issued' | 'failed', at: number, reason?: string): TransactionPart {
  return transactionPart({
    Update: {
      TableName: tableName('reservations'),
      Key: { reservation_id: reservationId },
      UpdateExpression: `SET #s = :s, finished_at = :at${reason ? ', failure_reason = :r' : ''} REMOVE #q`,
      ConditionExpression: '#q = :pending',
      ExpressionAttributeNames: { '#s': 'status', '#q': 'queue' },
      ExpressionAttributeValues: { ':s': status, ':at': at, ':pending': PENDING_QUEUE, ...(reason ? { ':r': reason } : {}) },
    },
  });
}

/** Still PROCESSING: look again later. Returns false when another worker already finished it. */
export async function postponeReservation(reservationId: string, nextCheckAt: number): Promise<boolean> {
  const out = await updateIf({
    TableName: tableName('reservations'),
    Key: { reservation_id: reservationId },
    UpdateExpression: 'SET next_check_at = :n ADD attempts :one',
    ConditionExpression: '#q = :pending',
    ExpressionAttributeNames: { '#q': 'queue' },
    ExpressionAttributeValues: { ':n': nextCheckAt, ':one': 1, ':pending': PENDING_QUEUE },
  });
  return out.written;
}
