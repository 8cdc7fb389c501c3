/**
 * The customer's session on the wire: the cookie the page's first open sets in exchange for the capture's
 * one-time ticket, and the check every customer route makes. HttpOnly (no script reads it), SameSite=Strict
 * (no other site's page or form sends it), Secure whenever the page is served over https.
 */
import { DomainError } from '../domain/errors';
import { exchangeTicket, SESSION_SECONDS, sessionDevice, type ProvenDevice } from '../domain/self-service/proof';
import type { MessageKey } from '../i18n/localize';
import type { RawResult, RequestState } from './request-state';
import { requestBaseUrl } from './request-url';

export const SESSION_COOKIE = 'customer_session';

/** The session cookie's value, if the request carries one. */
export function sessionCookie(state: Pick<RequestState, 'event'>): string | undefined {
  const header = state.event.headers?.cookie ?? state.event.headers?.Cookie ?? '';
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=');
  }
  return undefined;
}

function cookieHeader(value: string, maxAge: number, baseUrl: string): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${baseUrl.startsWith('https:') ? '; Secure' : ''}`;
}

/**
 * The page's first open with the capture's ticket: the ticket is spent, and a good one becomes the session
 * cookie and a redirect to the page's clean URL (so the address bar holds nothing worth sharing). A spent,
 * unknown or expired ticket: the notice the page shows instead, with nothing of the device.
 */
export async function enterWithTicket(state: RequestState, ticket: string, pageUrl: string): Promise<{ redirect: RawResult } | { notice: MessageKey }> {
  const exchange = await exchangeTicket(ticket, state.tenant.tenantId, Math.floor(state.now / 1000));
  if ('refused' in exchange) return { notice: exchange.refused };
  return {
    redirect: {
      raw: null,
      statusCode: 303,
      text: '',
      headers: { Location: pageUrl, 'Set-Cookie': cookieHeader(exchange.session, SESSION_SECONDS, requestBaseUrl(state.event, state.tenant)), 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
    },
  };
}

/** The device the request's session proves, if any. */
export function currentDevice(state: RequestState): Promise<ProvenDevice | undefined> {
  return sessionDevice(sessionCookie(state), state.tenant.tenantId, Math.floor(state.now / 1000));
}

/** The proven device, or the refusal every customer action answers without one (a typed UDID proves nothing). */
export async function requireDevice(state: RequestState): Promise<ProvenDevice> {
  const device = await currentDevice(state);
  if (!device) throw new DomainError('token_invalid', 'session_required');
  return device;
}
