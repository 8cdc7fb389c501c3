/**
 * The add routes' `capture`: a ticket in place of `udid`, so a storefront adds exactly the device that proved
 * itself. The ticket must verify on this tenant and be unexpired; its UDID becomes the add's `udid`.
 */
import { DomainError } from '../errors';
import { ticketPublicJwk } from './capture-keys';
import { verifyTicket } from './ticket';

const TICKET_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export async function withCapturedUdid(params: Record<string, unknown>, tenantId: string, now: number): Promise<Record<string, unknown>> {
  if (params.capture === undefined) return params;
  if (params.udid !== undefined && params.udid !== '') throw new DomainError('validation', 'capture_with_udid', { fields: ['capture'] });
  const ticket = typeof params.capture === 'string' ? params.capture.trim() : '';
  const invalid = () => new DomainError('validation', 'capture_invalid', { fields: ['capture'] });
  if (!TICKET_SHAPE.test(ticket)) throw invalid();
  const claims = await verifyTicket(await ticketPublicJwk(tenantId), ticket, tenantId, now);
  if (!claims) throw invalid();
  return { ...params, udid: claims.udid };
}
