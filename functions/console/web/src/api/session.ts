/**
 * Signing in as a person: `/api/user/session` (the sign-in contract). Until that route is in the OpenAPI
 * document these calls are typed here by hand; they go through the same envelope handling as every other call.
 */
import { ApiError, call, setCsrfToken } from './client';
import { currentLang } from '../i18n';

export interface SessionUser {
  user_id: string;
  name: string;
  login: string;
  email?: string;
  totp_enabled: boolean;
}

export interface Session {
  csrf_token: string;
  /** ISO times: the end unless used again, and the end whatever happens. */
  expires_at: string;
  absolute_expires_at: string;
  session_id: string;
  user: SessionUser;
}

export interface SessionListItem {
  session_id: string;
  /** ISO times. */
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string;
  user_agent: string;
  current: boolean;
}

const PATH = '/api/user/session';
let csrf = '';

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
  csrf = '';
  setCsrfToken('');
}

async function send<T>(method: 'GET' | 'POST', body?: Record<string, unknown>): Promise<T> {
  const request = fetch(PATH, {
    method,
    credentials: 'same-origin',
    headers: {
      'X-Lang': currentLang(),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(method === 'POST' && csrf ? { 'X-CSRF-Token': csrf } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).then(async (response) => {
    const json: unknown = await response.json().catch(() => undefined);
    return response.ok ? { data: json as { code: number; msg: string; data: T }, response } : { error: json, response };
  });
  return (await call(request)) as T;
}

function remember(session: Session): Session {
  markSignedIn(true);
  csrf = session.csrf_token;
  setCsrfToken(session.csrf_token);
  return session;
}

/** The live session (its CSRF token recovered after a reload), or an ApiError 401 `session_expired`. */
export async function currentSession(): Promise<Session> {
  try {
    return remember(await send<Session>('GET'));
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) forgetSession();
    throw error;
  }
}

export async function signIn(login: string, password: string, totp?: string): Promise<Session> {
  return remember(await send<Session>('POST', { action: 'sign_in', login, password, ...(totp ? { totp } : {}) }));
}

export async function acceptInvite(invite: string, password: string): Promise<Session> {
  return remember(await send<Session>('POST', { action: 'accept_invite', invite, password }));
}

export async function signOut(): Promise<void> {
  try {
    await send('POST', { action: 'sign_out' });
  } finally {
    forgetSession();
  }
}

export const listSessions = () => send<{ items: SessionListItem[] }>('POST', { action: 'list' });
export const revokeSession = (session_id: string) => send<{ revoked: string }>('POST', { action: 'revoke', session_id });
export const totpSetup = () => send<{ secret: string; otpauth_uri: string }>('POST', { action: 'totp_setup' });
export const totpConfirm = (code: string) => send<Record<string, unknown>>('POST', { action: 'totp_confirm', code });
export const totpDisable = (password: string) => send<Record<string, unknown>>('POST', { action: 'totp_disable', password });
export const rotateToken = (password: string) => send<{ token: string }>('POST', { action: 'rotate_token', password });
