/**
 * The add routes' `capture`: a ticket in place of `udid`, so a storefront adds exactly the device that proved
 * itself. The ticket must verify on this tenant and be unexpired; it is refused on another reseller's add
 * (a ticket of a source's capture, or of the tenant profile with `user`, names its reseller) and beside
 * another source than the one it was captured on. Its UDID becomes the add's `udid`. It obtains nothing a
 * caller could not get by typing the UDID on its own account: its worth is that the UDID was not typed.
 */
import { DomainError } from '../errors';
import { ticketPublicJwk } from './capture-keys';
import { verifyTicket } from './ticket';

const TICKET_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface CaptureCaller {
  tenantId: string;
  userId: string;
}

export async function withCapturedUdid(params: Record<string, unknown>, caller: CaptureCaller, now: number): Promise<Record<string, unknown>> {
  if (params.capture === undefined) return params;
  if (params.udid !== undefined && params.udid !== '') throw new DomainError('validation', 'capture_with_udid', { fields: ['capture'] });
  const ticket = typeof params.capture === 'string' ? params.capture.trim() : '';
  const invalid = () => new DomainError('validation', 'capture_invalid', { fields: ['capture'] });
  if (!TICKET_SHAPE.test(ticket)) throw invalid();
  const claims = await verifyTicket(await ticketPublicJwk(caller.tenantId), ticket, caller.tenantId, now);
  if (!claims) throw invalid();
  const otherSource = claims.sourceId !== '' && typeof params.source_id === 'string' && params.source_id.trim() !== '' && params.source_id.trim() !== claims.sourceId;
  if ((claims.ownerId !== '' && claims.ownerId !== caller.userId) || otherSource) throw new DomainError('validation', 'capture_foreign', { fields: ['capture'] });
  return { ...params, udid: claims.udid };
}
