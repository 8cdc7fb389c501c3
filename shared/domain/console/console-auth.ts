/**
 * Signing in as a person: a login name or e-mail and a password, a TOTP code when the user has turned the
 * second factor on, limited per account and per caller IP; and what a signed-in person does with their own
 * sessions, second factor and API token. The operator's side is console-admin.ts.
 *
 * Limits, counted in the rate-limit table like every other limit (one `ADD` per attempt, so concurrent attempts
 * each get their own count and none can overrun a limit), charged before the password is checked and given
 * back when the attempt succeeds, so the counters hold failures only:
 * - per account: 5 failures in a calendar quarter hour lock the account until that quarter hour ends (also for
 *   a right password), answered `account_locked` with `locked_until`; a login no user holds is counted
 *   under its own name the same way, so the answers never tell which logins exist;
 * - per caller IP: 20 failures a calendar minute, then `too_many_attempts` (429) until the minute ends.
 */
import { findLogin, getCredential, restoreInvite, saveCredential, confirmTotp, removeTotp, setPendingTotp, spendTotpStep, takeInvite, deleteSessionsOf, deleteSession, sessionsOf, deleteSessionOf, type Credential, type StoredSession } from '../../db/repositories/console-auth-repository';
import { giveBack, incrementWithinLimit } from '../../db/repositories/rate-limit-repository';
import { getUser } from '../../db/repositories/user-repository';
import { minuteWindow, type MinuteWindow } from '../../limit-windows';
import { DomainError, validationError } from '../errors';
import { rotateToken } from '../users/token-rotation';
import { hashToken } from '../users/tokens';
import { hashPassword, verifyPassword } from './passwords';
import { createSession, type SessionClient } from './sessions';
import { matchingStep, newTotpSecret, totpUri } from './totp';

export const ACCOUNT_FAILURE_LIMIT = 5;
export const ACCOUNT_WINDOW_MS = 15 * 60_000;
export const IP_FAILURE_LIMIT = 20;
export const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The signed-in person as every session answer shows them. */
export interface PersonView {
  user_id: string;
  name: string;
  login: string;
  email?: string;
  totp_enabled: boolean;
}

export interface SessionAnswer extends Record<string, unknown> {
  session_id: string;
  csrf_token: string;
  /** When the session ends unless used again (12 h idle), never after its absolute end (7 days). */
  expires_at: string;
  absolute_expires_at: string;
  user: PersonView;
}

export async function personOf(userId: string, credential?: Credential): Promise<PersonView> {
  const [user, cred] = await Promise.all([getUser(userId), credential ? Promise.resolve(credential) : getCredential(userId)]);
  return {
    user_id: userId,
    name: user?.name || cred?.login || '',
    login: cred?.login ?? '',
    ...(cred?.email ? { email: cred.email } : {}),
    totp_enabled: cred?.totpSecret !== undefined,
  };
}

export function sessionAnswer(session: StoredSession, person: PersonView): SessionAnswer {
  return { session_id: session.sessionId, csrf_token: session.csrfToken, expires_at: iso(session.expiresAt), absolute_expires_at: iso(session.absoluteExpiresAt), user: person };
}

interface Charge {
  bucket: string;
  count: number;
  window: MinuteWindow;
}

/** One attempt counted in `bucket` (fail closed: a counter that cannot be written refuses the sign-in). */
async function charge(bucket: string, limit: number, window: MinuteWindow): Promise<Charge & { allowed: boolean }> {
  try {
    const hit = await incrementWithinLimit(`${bucket}#${window.id}`, limit, window.resetAt + 300);
    return { bucket: `${bucket}#${window.id}`, count: hit.count, allowed: hit.allowed, window };
  } catch (cause) {
    throw new DomainError('unavailable', 'rate_limit_unavailable', { cause });
  }
}

async function refund(...charges: Array<Charge | undefined>): Promise<void> {
  await Promise.all(charges.filter((c): c is Charge => c !== undefined).map((c) => giveBack(c.bucket).catch(() => undefined)));
}

export const accountBucket = (who: string) => `console-sign-in#account:${who}`;
const ipBucket = (ip: string) => `console-sign-in#ip:${ip}`;
export const accountWindow = (nowMs: number) => minuteWindow(nowMs, ACCOUNT_WINDOW_MS);

function lockedError(window: MinuteWindow): DomainError {
  return new DomainError('rate_limited', 'account_locked', {
    params: { until: iso(window.resetAt) },
    data: { locked_until: iso(window.resetAt), retry_after: window.retryAfter },
  });
}

/** Counts a failure per caller IP before anything is checked; over the limit: `too_many_attempts`. */
async function chargeIp(ip: string, nowMs: number): Promise<Charge> {
  const hit = await charge(ipBucket(ip), IP_FAILURE_LIMIT, minuteWindow(nowMs));
  if (!hit.allowed) {
    await refund(hit);
    throw new DomainError('rate_limited', 'too_many_attempts', { params: { retry_after: hit.window.retryAfter }, data: { limit: IP_FAILURE_LIMIT, retry_after: hit.window.retryAfter } });
  }
  return hit;
}

/** Counts a failure against the account before its password is checked; a locked account is refused. */
async function chargeAccount(who: string, nowMs: number, also: Charge | undefined): Promise<Charge> {
  const hit = await charge(accountBucket(who), ACCOUNT_FAILURE_LIMIT, accountWindow(nowMs));
  if (!hit.allowed) {
    // A refused attempt never ran: neither counter keeps it.
    await refund(hit, also);
    throw lockedError(hit.window);
  }
  return hit;
}

/** What an attempt that ran and failed answers: the last one the account may fail says it is now locked. */
function failed(account: Charge, reason: 'sign_in_failed' | 'password_incorrect'): DomainError {
  if (account.count >= ACCOUNT_FAILURE_LIMIT) return lockedError(account.window);
  return reason === 'sign_in_failed' ? new DomainError('token_invalid', 'sign_in_failed') : validationError('password_incorrect', ['password']);
}

export interface SignInRequest {
  tenantId: string;
  login: string;
  password: string;
  totp: string | undefined;
}

/** A sign-in: the new session's cookie value (for the cookie only) and its answer. */
export async function signIn(request: SignInRequest, client: SessionClient, nowMs: number): Promise<{ cookie: string; answer: SessionAnswer }> {
  const login = request.login.trim().toLowerCase();
  const [ip, userId] = await Promise.all([chargeIp(client.ip, nowMs), findLogin(request.tenantId, login)]);
  // The credential is read while the account's attempt is counted (read for nothing only when it is locked).
  const [account, credential] = await Promise.all([chargeAccount(userId ?? `login:${request.tenantId}#${login}`, nowMs, ip), userId ? getCredential(userId) : undefined]);
  const mine = credential && credential.tenantId === request.tenantId ? credential : undefined;
  if (!(await verifyPassword(request.password, mine?.passwordHash)) || !mine) throw failed(account, 'sign_in_failed');
  if (mine.totpSecret !== undefined) {
    if (!request.totp) {
      // The password was right: not a failure, but no session either until the code comes.
      await refund(ip, account);
      throw new DomainError('validation', 'totp_required', { fields: ['totp'] });
    }
    const step = matchingStep(mine.totpSecret, request.totp.trim(), nowMs);
    if (step === undefined || !(await spendTotpStep(mine.userId, step))) throw failed(account, 'sign_in_failed');
  }
  const [, { cookie, session }, person] = await Promise.all([refund(ip, account), createSession({ userId: mine.userId, tenantId: mine.tenantId }, client, Math.floor(nowMs / 1000)), personOf(mine.userId, mine)]);
  return { cookie, answer: sessionAnswer(session, person) };
}

/**
 * A signed-in person proving it is still them (turning TOTP off, rotating the API token): their password,
 * counted against the account as a sign-in is, so a session left open cannot be used to guess it.
 */
async function confirmPassword(userId: string, password: string, nowMs: number): Promise<Credential> {
  const account = await chargeAccount(userId, nowMs, undefined);
  const credential = await getCredential(userId);
  if (!(await verifyPassword(password, credential?.passwordHash)) || !credential) throw failed(account, 'password_incorrect');
  await refund(account);
  return credential;
}

/** The user's live sessions, newest first; `current` marks the one asking. */
export async function listSessions(userId: string, current: StoredSession, now: number) {
  const live = (await sessionsOf(userId)).filter((s) => s.tenantId === current.tenantId && s.expiresAt > now && s.absoluteExpiresAt > now);
  return live
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((s) => ({ session_id: s.sessionId, created_at: iso(s.createdAt), last_seen_at: iso(s.lastSeenAt), expires_at: iso(s.expiresAt), ip: s.ip, user_agent: s.userAgent, current: s.itemKey === current.itemKey }));
}

/** Ends one of the user's sessions by its id (the current one too: that is signing out). */
export async function revokeSession(userId: string, sessionId: string): Promise<void> {
  if (!(await deleteSessionOf(userId, sessionId))) throw validationError('session_not_found', ['session_id']);
}

export async function signOut(session: StoredSession): Promise<void> {
  await deleteSession(session.itemKey);
}

/** A new TOTP secret for the user to scan; asked for at sign-in only once a code from it is confirmed. */
export async function setUpTotp(userId: string, tenantName: string) {
  const credential = await getCredential(userId);
  if (!credential) throw new DomainError('conflict', 'password_not_set');
  if (credential.totpSecret !== undefined) throw new DomainError('conflict', 'totp_already_enabled');
  const secret = newTotpSecret();
  await setPendingTotp(userId, secret);
  return { secret, otpauth_uri: totpUri(secret, credential.login, tenantName || 'Console') };
}

export async function confirmTotpSetup(userId: string, code: string, nowMs: number): Promise<PersonView> {
  const credential = await getCredential(userId);
  const pending = credential?.totpPending;
  if (!credential || pending === undefined) throw new DomainError('conflict', 'totp_not_pending');
  const step = matchingStep(pending, code.trim(), nowMs);
  if (step === undefined) throw validationError('totp_invalid', ['code']);
  if (!(await confirmTotp(userId, pending, step))) throw new DomainError('conflict', 'totp_not_pending');
  return personOf(userId);
}

export async function disableTotp(userId: string, password: string, nowMs: number): Promise<PersonView> {
  await confirmPassword(userId, password, nowMs);
  await removeTotp(userId);
  return personOf(userId);
}

/** A new API token, answered once; the old one is refused from now on (the operator's `token rotate`). */
export async function rotateApiToken(userId: string, password: string, nowMs: number): Promise<string> {
  await confirmPassword(userId, password, nowMs);
  return rotateToken(userId);
}

/**
 * An invitation taken up: its password set (the login the operator gave it), every earlier session of the
 * user ended, and a session started. An unknown, used, expired or other tenant's invitation:
 * `invite_invalid`, counted against the caller IP as a failed sign-in.
 */
export async function acceptInvite(tenantId: string, invite: string, password: string, client: SessionClient, nowMs: number): Promise<{ cookie: string; answer: SessionAnswer }> {
  const ip = await chargeIp(client.ip, nowMs);
  const now = Math.floor(nowMs / 1000);
  const hash = hashToken(invite.trim());
  const taken = await takeInvite(hash, tenantId, now);
  if (!taken) throw validationError('invite_invalid', ['invite']);
  const passwordHash = await hashPassword(password);
  if (!(await saveCredential({ userId: taken.userId, tenantId, login: taken.login, email: taken.email, passwordHash }, await getCredential(taken.userId)))) {
    await restoreInvite(hash, taken);
    await refund(ip);
    throw new DomainError('conflict', 'login_taken');
  }
  await refund(ip);
  await deleteSessionsOf(taken.userId);
  const { cookie, session } = await createSession({ userId: taken.userId, tenantId }, client, now);
  return { cookie, answer: sessionAnswer(session, await personOf(taken.userId)) };
}
