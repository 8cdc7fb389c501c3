/**
 * Runs work under a lease so that two holders of one name never run at once. The lease expires on its own
 * (`ttlSeconds`), so a holder that dies without releasing blocks the name only until then.
 */
import { randomUUID } from 'node:crypto';
import { acquireLease, releaseLease } from '../db/repositories/lease-repository';

export type LeaseOutcome<T> = { ran: true; result: T } | { ran: false };

export async function withLease<T>(name: string, ttlSeconds: number, work: () => Promise<T>): Promise<LeaseOutcome<T>> {
  const owner = randomUUID();
  // Wall-clock time on purpose: the lease guards real concurrency, not the domain's (injectable) clock.
  const now = Math.floor(Date.now() / 1000);
  if (!(await acquireLease(name, owner, now, now + ttlSeconds))) return { ran: false };
  try {
    return { ran: true, result: await work() };
  } finally {
    await releaseLease(name, owner);
  }
}
