/**
 * A proven device's session cookie without the device simulator: the ticket a verified capture is issued,
 * exchanged as the customer page exchanges it on the first open. For tests that need the session routes to
 * get past their `session` auth (the self-service tests prove the capture and the exchange themselves).
 */
import { exchangeTicket, issueTicket } from '../../shared/domain/self-service/proof';
import { SESSION_COOKIE } from '../../shared/http/customer-session';
import { DEFAULT_TENANT_ID } from '../../shared/records/tenant';
import type { UdidCapture } from '../../shared/records/udid-capture';

/** The `Cookie` header value of a fresh 30-minute session of `udid` on the tenant. */
export async function customerSessionCookie(udid: string, tenantId: string = DEFAULT_TENANT_ID): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const capture: UdidCapture = { capture_id: 'cap_t', tenant_id: tenantId, source_id: '', owner_id: '', udid, product: 'iPhone15,2', version: '17.4', serial: '', device_name: 'iPhone', return_url: '', captured_at: now, verified: true };
  const exchanged = await exchangeTicket(await issueTicket(capture, now), tenantId, now);
  if (!('session' in exchanged)) throw new Error(`the ticket was refused: ${exchanged.refused}`);
  return `${SESSION_COOKIE}=${exchanged.session}`;
}
