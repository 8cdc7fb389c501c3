/**
 * A review-mode add whose Apple device may still be PROCESSING. `pending` until the worker sees
 * the device ENABLED (`issued`) or Apple refuses it or 30 days pass (`failed`, charge refunded).
 */
import type { DeviceClass } from './account';

export type ReservationStatus = 'pending' | 'issued' | 'failed';

/** What the add charged, so a failure can give exactly that back. */
export type Charge = { kind: 'balance'; amount: number } | { kind: 'code'; code: string } | { kind: 'free' };

export interface Reservation {
  reservationId: string;
  status: ReservationStatus;
  tenantId: string;
  userId: string;
  kid: string;
  accountId: string;
  appleDeviceId: string;
  udid: string;
  deviceClass: DeviceClass;
  charge: Charge;
  createdAt: number;
  /** Epoch seconds of the worker's next look at Apple. */
  nextCheckAt: number;
  attempts: number;
  failureReason?: string;
}

/** Apple may keep a device PROCESSING for 72 h and ineligible for up to 30 days: after that, give up. */
export const RESERVATION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** 10 s, 30 s, 70 s … doubling, at most 30 minutes: fast for the first minutes, gentle on Apple's hourly budget later. */
export function nextCheckDelaySeconds(attempts: number): number {
  return Math.min(10 * 2 ** attempts, 30 * 60);
}
