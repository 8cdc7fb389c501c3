/**
 * Signing in as a person: `/api/user/session`, through the typed client like every other call. Its answer is
 * one shape per action (a union in the document); each function here names the member its action answers.
 */
import { ApiError, api, call, setCsrfToken, type Answer, type SessionPaths } from './client';

type SessionBody = NonNullable<NonNullable<SessionPaths['/api/user/session']['post']['requestBody']>['content']['application/json']>;
/** Every member of the answers' union, by its fields. */
type AnyAnswer = Answer<'/api/user/session', 'post'>;
type Member<T> = Extract<AnyAnswer, T>;

/** The live session (sign-in, GET): its CSRF token, ISO end times, and the person. */
export type Session = Member<{ csrf_token: unknown }>;
export type SessionListItem = Member<{ items: unknown }>['items'][number];

/**
 * Whether this browser signed in and has not signed out since. The session cookie is HttpOnly (script cannot
 * see it), so this flag spares a visitor who never signed in a request the API can only refuse: the sign-in
 * form shows at once. A stale flag costs one refused request, after which it is cleared.
 */
const SIGNED_IN_KEY = 'console.signedIn';

function markSignedIn(on: boolean): void {
  try {
    if (on) localStorage.setItem(SIGNED_IN_KEY, '1');
    else localStorage.removeItem(SIGNED_IN_KEY);
  } catch {
    // No storage: every load asks the API.
  }
}

export function maybeSignedIn(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_KEY) !== null;
  } catch {
    return true;
  }
}

/** The session ended (signed out, expired, revoked): the next load shows the form without asking. */
export function forgetSession(): void {
  markSignedIn(false);
  setCsrfToken('');
}

function post<T>(body: SessionBody): Promise<T> {
  return call(api.POST('/api/user/session', { body })) as Promise<T>;
}

function remember(session: Session): Session {
  markSignedIn(true);
  setCsrfToken(session.csrf_token);
  return session;
}

/** The live session (its CSRF token recovered after a reload), or an ApiError 401 `session_expired`. */
export async function currentSession(): Promise<Session> {
  try {
    return remember((await call(api.GET('/api/user/session'))) as Session);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) forgetSession();
    throw error;
  }
}

export async function signIn(login: string, password: string, totp?: string): Promise<Session> {
  return remember(await post<Session>({ action: 'sign_in', login, password, ...(totp ? { totp } : {}) }));
}

export async function acceptInvite(invite: string, password: string): Promise<Session> {
  return remember(await post<Session>({ action: 'accept_invite', invite, password }));
}

export async function signOut(): Promise<void> {
  try {
    await post({ action: 'sign_out' });
  } finally {
    forgetSession();
  }
}

export const listSessions = () => post<Member<{ items: unknown }>>({ action: 'list' });
export const revokeSession = (session_id: string) => post<Member<{ revoked: unknown }>>({ action: 'revoke', session_id });
export const totpSetup = () => post<Member<{ otpauth_uri: unknown }>>({ action: 'totp_setup' });
export const totpConfirm = (code: string) => post<AnyAnswer>({ action: 'totp_confirm', code });
export const totpDisable = (password: string) => post<AnyAnswer>({ action: 'totp_disable', password });
export const rotateToken = (password: string) => post<Member<{ token: unknown }>>({ action: 'rotate_token', password });
