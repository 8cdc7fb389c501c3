/**
 * The operator's side of signing in as a person (infra/admin): setting or resetting a password, a one-time
 * invitation link, clearing a sign-in lockout.
 */
import { randomBytes } from 'node:crypto';
import { deleteSessionsOf, findLogin, getCredential, putInvite, resetCounter, saveCredential } from '../../db/repositories/console-auth-repository';
import { RuleError } from '../errors';
import { requireTenant } from '../tenants/tenant-service';
import { hashToken } from '../users/tokens';
import { requireUser } from '../users/user-service';
import { accountBucket, accountWindow, iso } from './console-auth';
import { hashPassword } from './passwords';

/** How long an invitation link stays valid unless the operator says otherwise. */
export const INVITE_HOURS = 72;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkNames(login: string, email: string | undefined): void {
  if (!login) throw new RuleError('login_required', 'the user has no name to sign in with');
  if (email !== undefined && !EMAIL.test(email)) throw new RuleError('email_invalid', 'not an e-mail address');
}

/**
 * Sets (or resets) a user's password, with the login name (default: the one they had, else the user's name)
 * and e-mail they sign in with, both unique on the tenant. Every session of the user ends.
 */
export async function setPassword(input: { userId: string; password: string; login?: string | undefined; email?: string | undefined }) {
  const user = await requireUser(input.userId);
  const previous = await getCredential(user.userId);
  const login = (input.login ?? previous?.login ?? user.name).trim();
  const email = input.email ?? previous?.email;
  checkNames(login, email);
  const ok = await saveCredential({ userId: user.userId, tenantId: user.tenantId, login, email, passwordHash: await hashPassword(input.password) }, previous);
  if (!ok) throw new RuleError('login_taken', `another user of the tenant signs in as "${login}"${email ? ` or "${email}"` : ''}`);
  const ended = await deleteSessionsOf(user.userId);
  return { user_id: user.userId, login, ...(email ? { email } : {}), sessions_ended: ended };
}

/**
 * A one-time invitation for the user to set their own password: the token (in the link, never stored) and
 * when it expires. The login must not be another user's on the tenant.
 */
export async function inviteUser(input: { userId: string; login?: string | undefined; email?: string | undefined; hours?: number | undefined }, now: number) {
  const user = await requireUser(input.userId);
  const previous = await getCredential(user.userId);
  const login = (input.login ?? previous?.login ?? user.name).trim();
  const email = input.email ?? previous?.email;
  checkNames(login, email);
  for (const name of [login, ...(email ? [email] : [])]) {
    const holder = await findLogin(user.tenantId, name);
    if (holder !== undefined && holder !== user.userId) throw new RuleError('login_taken', `another user of the tenant signs in as "${name}"`);
  }
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + (input.hours ?? INVITE_HOURS) * 3600;
  await putInvite(hashToken(token), { userId: user.userId, tenantId: user.tenantId, login, email, expiresAt });
  const tenant = await requireTenant(user.tenantId);
  return { token, tenant, login, expires_at: iso(expiresAt) };
}

/** Clears the account's sign-in lockout (its failures of the current quarter hour). */
export async function clearLockout(userId: string, nowMs: number) {
  const user = await requireUser(userId);
  const window = accountWindow(nowMs);
  await resetCounter(`${accountBucket(user.userId)}#${window.id}`);
  return { user_id: user.userId, cleared: true };
}
