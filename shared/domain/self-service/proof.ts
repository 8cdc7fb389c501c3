/**
 * How a customer's page learns which device it serves. Only a UDID the device itself sent through the
 * Profile Service counts. The device's answer is posted by iOS's profile installer, not Safari, so nothing it
 * is answered with (a cookie) reaches Safari: the redirect carries a one-time ticket instead, which the page's
 * first open spends and exchanges for a short session cookie. A copied or replayed URL then holds a spent
 * ticket and opens nothing.
 */
import { getSession, putSession, putTicket, takeTicket, type StoredProof } from '../../db/repositories/self-service-repository';
import type { UdidCapture } from '../../records/udid-capture';
import type { PricedClass } from '../pricing/prices';
import { generateToken as newToken, hashToken as digest } from '../users/tokens';

/** A ticket is spent by the first open, and is worth nothing after 10 minutes in any case. */
export const TICKET_SECONDS = 10 * 60;
/** The session the ticket is exchanged for: 30 minutes, then capture again. */
export const SESSION_SECONDS = 30 * 60;
/** Tickets and session ids: 32 random bytes, base64url (43 characters). */
export const PROOF_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** The redirect parameter that carries the ticket. */
export const TICKET_PARAM = 'st';

export interface ProvenDevice {
  tenantId: string;
  udid: string;
  sourceId: string;
  product: string;
  deviceName: string;
  /** When the device proved itself (its capture), epoch seconds. */
  provenAt: number;
  /** When the proof (ticket or session) ends, epoch seconds. */
  expiresAt: number;
}

function proven(stored: StoredProof): ProvenDevice {
  return { tenantId: stored.tenant_id, udid: stored.udid, sourceId: stored.source_id, product: stored.product, deviceName: stored.device_name, provenAt: stored.proven_at, expiresAt: stored.expires_at };
}

/** The one-time ticket of a capture that returns to one of the tenant's customer pages. */
export async function issueTicket(capture: UdidCapture, now: number): Promise<string> {
  const ticket = newToken();
  await putTicket(digest(ticket), {
    tenant_id: capture.tenant_id,
    udid: capture.udid,
    source_id: capture.source_id,
    product: capture.product,
    device_name: capture.device_name,
    proven_at: capture.captured_at,
    expires_at: now + TICKET_SECONDS,
  });
  return ticket;
}

export type Exchange = { session: string; device: ProvenDevice } | { refused: 'ticket_spent' | 'ticket_expired' };

/**
 * Spends the ticket (whatever happens next, it is gone) and opens a session for its device. A ticket that was
 * never issued, already spent, or is another tenant's: `ticket_spent`; one past its 10 minutes: `ticket_expired`.
 */
export async function exchangeTicket(ticket: string, tenantId: string, now: number): Promise<Exchange> {
  if (!PROOF_TOKEN_PATTERN.test(ticket)) return { refused: 'ticket_spent' };
  const stored = await takeTicket(tenantId, digest(ticket));
  if (!stored) return { refused: 'ticket_spent' };
  if (stored.expires_at <= now) return { refused: 'ticket_expired' };
  const session = newToken();
  const device: StoredProof = { ...stored, expires_at: now + SESSION_SECONDS };
  await putSession(digest(session), device);
  return { session, device: proven(device) };
}

/** The device a session cookie proves on this tenant, while it lasts; undefined otherwise. */
export async function sessionDevice(session: string | undefined, tenantId: string, now: number): Promise<ProvenDevice | undefined> {
  if (!session || !PROOF_TOKEN_PATTERN.test(session)) return undefined;
  const stored = await getSession(tenantId, digest(session));
  return stored && stored.expires_at > now && stored.tenant_id === tenantId ? proven(stored) : undefined;
}

/** The device class an add is priced for, from Apple's model identifier (`iPad13,4` → ipad). */
export function deviceClassOf(device: Pick<ProvenDevice, 'product'>): PricedClass {
  return /^ipad/i.test(device.product) ? 'ipad' : 'iphone';
}
