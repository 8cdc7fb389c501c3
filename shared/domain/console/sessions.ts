/**
 * A person's session (the reseller console): an opaque random cookie value, of which only the SHA-256 is
 * stored, naming its user, tenant and CSRF token. It ends after 12 hours unused (idle) and 7 days after
 * sign-in whatever happens (absolute), at sign-out, or when revoked from another session. Token auth's check of
 * it is session-auth.ts.
 */
import { randomBytes } from 'node:crypto';
import { putSession, sessionFromItem, type StoredSession } from '../../db/repositories/console-auth-repository';
import { readSessionItem } from '../../db/repositories/console-session-repository';
import { randomId } from '../../ids';
import { DomainError } from '../errors';
import { idleEnd, liveSessionItem, sessionKeyOf, SESSION_ABSOLUTE_SECONDS, type SessionClient } from './session-auth';

export { SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS, type SessionClient } from './session-auth';

/** A new session for the user: the cookie value (given once, never stored) and what is stored. */
export async function createSession(user: { userId: string; tenantId: string }, client: SessionClient, now: number): Promise<{ cookie: string; session: StoredSession }> {
  const cookie = randomBytes(32).toString('base64url');
  const absoluteExpiresAt = now + SESSION_ABSOLUTE_SECONDS;
  const session: StoredSession = {
    itemKey: sessionKeyOf(cookie),
    sessionId: randomId('cs_', 16),
    userId: user.userId,
    tenantId: user.tenantId,
    csrfToken: randomBytes(24).toString('base64url'),
    createdAt: now,
    lastSeenAt: now,
    absoluteExpiresAt,
    expiresAt: idleEnd(now, absoluteExpiresAt),
    ip: client.ip.slice(0, 64),
    userAgent: client.userAgent.slice(0, 256),
  };
  await putSession(session);
  return { cookie, session };
}

/** The live session a cookie names on this tenant (kept alive); else `session_expired`. */
export async function requireSession(cookie: string | undefined, tenantId: string, now: number, client: SessionClient): Promise<StoredSession> {
  if (!cookie) throw new DomainError('token_invalid', 'session_expired');
  return sessionFromItem(await liveSessionItem(await readSessionItem(sessionKeyOf(cookie)), tenantId, now, client));
}
