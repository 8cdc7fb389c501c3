/**
 * A console session as every token route checks it (token auth): the cookie's hash finds the session, which
 * must be live and of the request's tenant. Its idle end moves forward at most every 5 minutes, so most
 * requests made with a session cost exactly what a token's do (one read). Lean on purpose: every function's
 * bundle carries it.
 */
import { readSessionItem, sessionItemKey, touchSession } from '../../db/repositories/console-session-repository';
import { readBesideCredential, type TokenSideRead } from '../../db/repositories/user-repository';
import { DomainError } from '../errors';
import { hashToken } from '../users/tokens';
import type { TokenOwner } from '../../records/user';

export const SESSION_IDLE_SECONDS = 12 * 3600;
export const SESSION_ABSOLUTE_SECONDS = 7 * 86_400;
export const SESSION_TOUCH_SECONDS = 300;

/** Where a session is used from, as the session list shows it. */
export interface SessionClient {
  ip: string;
  userAgent: string;
}

/** The stored key a cookie value finds. */
export const sessionKeyOf = (cookie: string) => sessionItemKey(hashToken(cookie));

export const idleEnd = (lastSeen: number, absoluteEnd: number) => Math.min(lastSeen + SESSION_IDLE_SECONDS, absoluteEnd);

/**
 * The session item, once it is checked live on this tenant (and kept alive); a missing, ended or other
 * tenant's session is `session_expired` (401, code 10), one answer for all.
 */
export async function liveSessionItem(item: Record<string, unknown> | undefined, tenantId: string, now: number, client: SessionClient): Promise<Record<string, unknown>> {
  if (!item || item.tenant_id !== tenantId || !(Number(item.expires_at) > now) || !(Number(item.absolute_expires_at) > now)) throw new DomainError('token_invalid', 'session_expired');
  if (now - Number(item.last_seen_at) < SESSION_TOUCH_SECONDS) return item;
  const live = { ...item, last_seen_at: now, expires_at: idleEnd(now, Number(item.absolute_expires_at)), ip: client.ip.slice(0, 64), user_agent: client.userAgent.slice(0, 256) };
  await touchSession(String(item.item_key), now, live.expires_at, live.ip, live.user_agent);
  return live;
}

export interface SessionCaller {
  owner: TokenOwner;
  csrfToken: string;
}

const callerOf = (item: Record<string, unknown>): SessionCaller => ({ owner: { userId: String(item.session_user), tenantId: String(item.tenant_id), tokenExpiresAt: undefined }, csrfToken: String(item.csrf_token) });

/** The caller a console session cookie names (token auth, a request without a token). */
export async function authenticateSession(cookie: string, now: number, tenantId: string, client: SessionClient): Promise<SessionCaller> {
  return callerOf(await liveSessionItem(await readSessionItem(sessionKeyOf(cookie)), tenantId, now, client));
}

/**
 * `authenticateSession` with the items `reads` names read in the same BatchGetItem as the session (as they
 * are with a token: `readWithToken`), handed back only once the session is live.
 */
export async function authenticateSessionWith<K extends string>(cookie: string, now: number, tenantId: string, client: SessionClient, reads: Readonly<Record<K, TokenSideRead>>): Promise<SessionCaller & { items: Record<K, Record<string, unknown> | null> }> {
  const { credential, items } = await readBesideCredential({ table: 'consoleAuth', key: { item_key: sessionKeyOf(cookie) } }, reads);
  return { ...callerOf(await liveSessionItem(credential ?? undefined, tenantId, now, client)), items };
}
