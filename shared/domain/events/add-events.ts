/**
 * The events of adds and reviews, each a part of the transaction that records what it reports: the add's
 * final write (`device.added`), the reservation worker's issue (`reservation.issued`) and failure with its
 * refund (`reservation.failed`).
 */
import type { IssuedDevice } from '../../db/repositories/issued-device-repository';
import type { TransactionPart } from '../../db/transactions';
import type { DeviceZt } from '../../records/device';
import type { Reservation } from '../../records/reservation';
import { moneyView } from '../../records/event';
import { eventPart } from './outbox';

export function deviceAddedPart(device: IssuedDevice, mode: 'instant' | 'review'): TransactionPart {
  return eventPart('device.added', { tenantId: device.tenant_id, userId: device.user_id }, {
    kid: device.kid,
    id: device.id,
    udid: device.udid,
    type: device.type,
    pool: device.pool,
    mode,
    warranty: device.shtype,
    ...(device.reservation_id ? { reservation_id: device.reservation_id } : {}),
    ytime: device.ytime,
    charge: moneyView(device.charge),
  });
}

export function reservationIssuedPart(reservation: Reservation): TransactionPart {
  return eventPart('reservation.issued', { tenantId: reservation.tenantId, userId: reservation.userId }, {
    reservation_id: reservation.reservationId,
    kid: reservation.kid,
    udid: reservation.udid,
    type: reservation.deviceClass,
  });
}

/** `refund` is what was given back: the whole charge (nothing for a free add). */
export function reservationFailedPart(reservation: Reservation, zt: DeviceZt, reason: string): TransactionPart {
  return eventPart('reservation.failed', { tenantId: reservation.tenantId, userId: reservation.userId }, {
    reservation_id: reservation.reservationId,
    kid: reservation.kid,
    udid: reservation.udid,
    type: reservation.deviceClass,
    zt,
    reason,
    refund: moneyView(reservation.charge),
  });
}
