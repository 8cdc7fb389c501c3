/**
 * Limits of what a customer's page can make the service do (redeem a code, re-issue), beside the per-IP
 * limits of the routes: per proven device, and one ceiling per tenant that no number of devices or addresses
 * gets around — so codes cannot be guessed at speed even from a farm of captured devices.
 */
import { incrementWithinLimit } from '../../db/repositories/rate-limit-repository';
import { udidKey } from '../../records/device';
import { DomainError } from '../errors';

/** Attempts per proven device per hour. */
export const DEVICE_ATTEMPTS_PER_HOUR = 10;
/** Attempts of all the tenant's customers together per hour. */
export const TENANT_ATTEMPTS_PER_HOUR = 300;

const HOUR = 3600;

/** Counts one attempt of the device; refuses (429) when the device's or the tenant's hour is used up. */
export async function countCustomerAttempt(tenantId: string, udid: string, now: number): Promise<void> {
  const start = Math.floor(now / HOUR) * HOUR;
  const hour = new Date(start * 1000).toISOString().slice(0, 13);
  const expires = start + 2 * HOUR;
  const [device, tenant] = await Promise.all([
    incrementWithinLimit(`customer-add#device:${tenantId}#${udidKey(udid)}#${hour}`, DEVICE_ATTEMPTS_PER_HOUR, expires),
    incrementWithinLimit(`customer-add#tenant:${tenantId}#${hour}`, TENANT_ATTEMPTS_PER_HOUR, expires),
  ]);
  if (device.allowed && tenant.allowed) return;
  const retryAfter = Math.max(1, start + HOUR - now);
  throw new DomainError('rate_limited', 'redeem_limited', { params: { retry_after: retryAfter }, data: { retry_after: retryAfter } });
}
