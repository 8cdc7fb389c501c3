/**
 * The ticket a storefront receives with the UDID: a JWT signed ES256 with the tenant's ticket key, so anyone
 * holding the public key (`udid ticket-key`) verifies it offline. Claims: `sub` the UDID, `tid` the tenant,
 * `sid` the source ('' for the tenant profile), `own` the reseller the capture belongs to ('' when the tenant
 * profile named none), `ret` the return target it was sent to, `cid` the capture id, `product`, `ios`
 * (version), `iat`, `exp` (24 h), `aud` `udid-capture`, header `kid` the key's JWK thumbprint.
 *
 * A ticket proves "this UDID was captured for this reseller, source and return target", nothing more: it is
 * never rendered into a device key or a session (only the one-time `st` of a customer page opens those).
 */
import { importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { isUdidFormat } from '../../records/device';
import { TICKET_ALG, type SigningKeys } from './capture-keys';
import { TICKET_TTL_SECONDS, type UdidCapture } from '../../records/udid-capture';

export const TICKET_AUDIENCE = 'udid-capture';
/** A ticket longer than this is not one of ours (they are about 400 characters). */
export const TICKET_MAX_CHARS = 2048;

export interface TicketClaims {
  udid: string;
  tenantId: string;
  sourceId: string;
  /** The reseller the capture belongs to; '' when the tenant profile named none. */
  ownerId: string;
  /** The return target the capture was sent to. */
  returnUrl: string;
  captureId: string;
  expiresAt: number;
}

export function issueTicket(keys: SigningKeys, capture: UdidCapture): Promise<string> {
  return new SignJWT({ tid: capture.tenant_id, sid: capture.source_id, own: capture.owner_id, ret: capture.return_url, cid: capture.capture_id, product: capture.product, ios: capture.version })
    .setProtectedHeader({ alg: TICKET_ALG, kid: keys.ticketKid, typ: 'JWT' })
    .setSubject(capture.udid)
    .setAudience(TICKET_AUDIENCE)
    .setIssuedAt(capture.captured_at)
    .setExpirationTime(capture.captured_at + TICKET_TTL_SECONDS)
    .sign(keys.ticketKey);
}

/** The ticket's claims when it verifies against the tenant's public key and is unexpired; undefined otherwise. */
export async function verifyTicket(publicJwk: JWK | undefined, ticket: string, tenantId: string, now: number): Promise<TicketClaims | undefined> {
  if (!publicJwk || ticket.length > TICKET_MAX_CHARS) return undefined;
  try {
    const key = await importJWK(publicJwk, TICKET_ALG);
    const { payload } = await jwtVerify(ticket, key, { algorithms: [TICKET_ALG], audience: TICKET_AUDIENCE, currentDate: new Date(now * 1000) });
    const { sub, tid, sid, own, ret, cid, exp } = payload as Record<string, unknown>;
    // A ticket without `own` and `ret` predates their binding: it names no reseller or target and is refused.
    if (tid !== tenantId || typeof sub !== 'string' || !isUdidFormat(sub) || typeof sid !== 'string' || typeof own !== 'string' || typeof ret !== 'string' || typeof cid !== 'string' || typeof exp !== 'number') return undefined;
    return { udid: sub, tenantId: tid, sourceId: sid, ownerId: own, returnUrl: ret, captureId: cid, expiresAt: exp };
  } catch {
    return undefined;
  }
}
