/**
 * The reseller console's session on the wire: the `console_session` cookie (an opaque random value; only its
 * hash is stored) and the CSRF token every write made with it carries in `X-CSRF-Token`. HttpOnly (no script
 * reads the cookie), Secure (browsers keep Secure cookies of http://localhost and 127.0.0.1 too, so the local
 * runtime needs no exception), SameSite=Strict (no other site's page or form sends it).
 */
import { timingSafeEqual } from 'node:crypto';
import type { ApiEvent } from './request-state';

export const CONSOLE_COOKIE = 'console_session';

/** The console session cookie's value, if the request carries one (headers are lower-cased by the chain). */
export function consoleSessionCookie(event: Pick<ApiEvent, 'headers'>): string | undefined {
  return /(?:^|;)\s*console_session=([^;\s]+)/.exec(event.headers?.cookie ?? '')?.[1];
}

/** The cookie that starts a session (`maxAge` seconds: until its absolute end) or, with 0, ends it. */
export function consoleCookieHeader(value: string, maxAge: number): string {
  return `${CONSOLE_COOKIE}=${value}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=${maxAge}`;
}

/**
 * Whether a request made with a session carries what its method needs: GET and HEAD change nothing (unless
 * the route `writesOnGet`); any other method needs the session's CSRF token in `X-CSRF-Token` (compared in
 * constant time).
 */
export function csrfSatisfied(event: Pick<ApiEvent, 'headers' | 'httpMethod'>, csrfToken: string, writesOnGet = false): boolean {
  if (!writesOnGet && (event.httpMethod === 'GET' || event.httpMethod === 'HEAD')) return true;
  const [sent, expected] = [Buffer.from(event.headers?.['x-csrf-token'] ?? ''), Buffer.from(csrfToken)];
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
