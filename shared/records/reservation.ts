/**
 * A review-mode add whose Apple device may still be PROCESSING. `pending` until the worker sees
 * the device ENABLED (`issued`) or Apple refuses it or 30 days pass (`failed`, charge refunded).
 */
import type { DeviceClass } from './account';

export type ReservationStatus = 'pending' | 'issued' | 'failed';

/**
 * One reseller above an agent in an agent's add: it was credited `credit` (what the level below it paid) and
 * paid `cost` (its own price) upward, in the same transaction as the agent's charge. `level` is its own (0: the
 * tenant's reseller of the operator).
 */
export interface UplineShare {
  userId: string;
  level: number;
  credit: number;
  cost: number;
}

/**
 * What the add charged, so a failure can give exactly that back. An agent's add paid from the balance names
 * every level above it (`upline`, parent first), so a refund unwinds each level exactly.
 */
export type Charge = { kind: 'balance'; amount: number; upline?: UplineShare[]; counted?: CountedAdd } | { kind: 'code'; code: string } | { kind: 'free' };

/**
 * The month's add counts an add paid from the balance moved (its user's and every level's above it, for volume
 * bands: records/price-band.ts), so that a refund takes it out of exactly those, in that month.
 */
export interface CountedAdd {
  month: string;
  users: string[];
}

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
