/**
 * Signing in as a person, stored in the `consoleAuth` table (shared/db/tables.ts): sessions, claimed logins,
 * credentials and one-time invitations, one item each, told apart by the prefix of `item_key`. Secrets that
 * would let someone in (the cookie value, an invitation's token) are stored only as their SHA-256; a password
 * only as its scrypt hash.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { deleteIf, updateIf } from '../conditional-write';
import { queryAll } from '../paging';
import { tableName } from '../table-names';
import { transactWrite, type TransactItem } from '../transactions';
import { readSessionItem } from './console-session-repository';

export { sessionItemKey, touchSession } from './console-session-repository';

const table = () => tableName('consoleAuth');

const loginKey = (tenantId: string, login: string) => `login#${tenantId}#${login.toLowerCase()}`;
const credentialKey = (userId: string) => `credential#${userId}`;
const inviteKey = (hash: string) => `invite#${hash}`;

export interface StoredSession {
  /** `session#<hash>`: what the cookie's hash finds. */
  itemKey: string;
  /** The public id the user lists and revokes sessions by (never the cookie). */
  sessionId: string;
  userId: string;
  tenantId: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  /** When the session ends whatever happens: created + the absolute lifetime. */
  absoluteExpiresAt: number;
  /** When it ends unless seen again: min(last seen + idle lifetime, absolute end). Also the TTL. */
  expiresAt: number;
  ip: string;
  userAgent: string;
}

export function sessionFromItem(item: Record<string, unknown>): StoredSession {
  return {
    itemKey: String(item.item_key),
    sessionId: String(item.session_id),
    userId: String(item.session_user),
    tenantId: String(item.tenant_id),
    csrfToken: String(item.csrf_token),
    createdAt: Number(item.created_at),
    lastSeenAt: Number(item.last_seen_at),
    absoluteExpiresAt: Number(item.absolute_expires_at),
    expiresAt: Number(item.expires_at),
    ip: String(item.ip ?? ''),
    userAgent: String(item.user_agent ?? ''),
  };
}

export async function putSession(s: StoredSession): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: {
        item_key: s.itemKey,
        session_id: s.sessionId,
        session_user: s.userId,
        tenant_id: s.tenantId,
        csrf_token: s.csrfToken,
        created_at: s.createdAt,
        last_seen_at: s.lastSeenAt,
        absolute_expires_at: s.absoluteExpiresAt,
        expires_at: s.expiresAt,
        ip: s.ip,
        user_agent: s.userAgent,
      },
      ConditionExpression: 'attribute_not_exists(item_key)',
    }),
  );
}

export async function getSession(itemKey: string): Promise<StoredSession | undefined> {
  const item = await readSessionItem(itemKey);
  return item ? sessionFromItem(item) : undefined;
}

export async function deleteSession(itemKey: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: table(), Key: { item_key: itemKey } }));
}

/** A user's sessions, oldest first (expired ones TTL has not swept yet included: the caller filters). */
export async function sessionsOf(userId: string): Promise<StoredSession[]> {
  const items = await queryAll({ TableName: table(), IndexName: 'by-session-user', KeyConditionExpression: 'session_user = :u', ExpressionAttributeValues: { ':u': userId } });
  return items.map(sessionFromItem);
}

/** Deletes the session with this public id, only if it is the user's. False: no such session of theirs. */
export async function deleteSessionOf(userId: string, sessionId: string): Promise<boolean> {
  const session = (await sessionsOf(userId)).find((s) => s.sessionId === sessionId);
  if (!session) return false;
  const outcome = await deleteIf({ TableName: table(), Key: { item_key: session.itemKey }, ConditionExpression: 'session_user = :u', ExpressionAttributeValues: { ':u': userId } });
  return outcome.written;
}

/** Ends every session of the user (a password set by the operator, an invitation accepted). */
export async function deleteSessionsOf(userId: string): Promise<number> {
  const sessions = await sessionsOf(userId);
  for (const s of sessions) await deleteSession(s.itemKey);
  return sessions.length;
}

/** What a user signs in with. `totpSecret` is set only once confirmed; `totpPending` while being set up. */
export interface Credential {
  userId: string;
  tenantId: string;
  login: string;
  email: string | undefined;
  passwordHash: string | undefined;
  totpSecret: string | undefined;
  totpPending: string | undefined;
  /** The last TOTP time step a code was accepted for: that code and every earlier one are spent. */
  totpLastStep: number | undefined;
}

function credentialFromItem(item: Record<string, unknown>): Credential {
  return {
    userId: String(item.user_id),
    tenantId: String(item.tenant_id),
    login: String(item.login),
    email: typeof item.email === 'string' ? item.email : undefined,
    passwordHash: typeof item.password_hash === 'string' ? item.password_hash : undefined,
    totpSecret: typeof item.totp_secret === 'string' ? item.totp_secret : undefined,
    totpPending: typeof item.totp_pending === 'string' ? item.totp_pending : undefined,
    totpLastStep: typeof item.totp_last_step === 'number' ? item.totp_last_step : undefined,
  };
}

export async function getCredential(userId: string): Promise<Credential | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: table(), Key: { item_key: credentialKey(userId) }, ConsistentRead: true }));
  return out.Item ? credentialFromItem(out.Item) : undefined;
}

/** The user a login name or e-mail names on a tenant. */
export async function findLogin(tenantId: string, login: string): Promise<string | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: table(), Key: { item_key: loginKey(tenantId, login) }, ConsistentRead: true }));
  return typeof out.Item?.user_id === 'string' ? out.Item.user_id : undefined;
}

/**
 * Sets the user's login, e-mail and password hash in one transaction: each login name claimed on the tenant
 * unless another user holds it, the user's former names released. False: a name is another user's.
 */
export async function saveCredential(c: { userId: string; tenantId: string; login: string; email: string | undefined; passwordHash: string }, previous: Credential | undefined): Promise<boolean> {
  const names = [c.login, ...(c.email ? [c.email] : [])].map((n) => n.toLowerCase());
  const released = previous ? [previous.login, ...(previous.email ? [previous.email] : [])].map((n) => n.toLowerCase()).filter((n) => !names.includes(n)) : [];
  const items: TransactItem[] = [
    {
      Update: {
        TableName: table(),
        Key: { item_key: credentialKey(c.userId) },
        UpdateExpression: `SET user_id = :u, tenant_id = :t, login = :l, password_hash = :h${c.email ? ', email = :e' : ''}${c.email ? '' : ' REMOVE email'}`,
        ExpressionAttributeValues: { ':u': c.userId, ':t': c.tenantId, ':l': c.login, ':h': c.passwordHash, ...(c.email ? { ':e': c.email } : {}) },
      },
    },
    ...[...new Set(names)].map(
      (name): TransactItem => ({
        Put: {
          TableName: table(),
          Item: { item_key: loginKey(c.tenantId, name), user_id: c.userId, tenant_id: c.tenantId },
          ConditionExpression: 'attribute_not_exists(item_key) OR user_id = :u',
          ExpressionAttributeValues: { ':u': c.userId },
        },
      }),
    ),
    ...released.map((name): TransactItem => ({ Delete: { TableName: table(), Key: { item_key: loginKey(previous!.tenantId, name) }, ConditionExpression: 'user_id = :u', ExpressionAttributeValues: { ':u': c.userId } } })),
  ];
  return (await transactWrite(items)).ok;
}

/** A TOTP secret being set up: not asked for at sign-in until confirmed. */
export async function setPendingTotp(userId: string, secret: string): Promise<boolean> {
  const outcome = await updateIf({ TableName: table(), Key: { item_key: credentialKey(userId) }, UpdateExpression: 'SET totp_pending = :s', ConditionExpression: 'attribute_exists(item_key)', ExpressionAttributeValues: { ':s': secret } });
  return outcome.written;
}

/** The pending secret becomes the one sign-in asks for, with the step its confirming code spent. */
export async function confirmTotp(userId: string, pending: string, step: number): Promise<boolean> {
  const outcome = await updateIf({
    TableName: table(),
    Key: { item_key: credentialKey(userId) },
    UpdateExpression: 'SET totp_secret = :s, totp_last_step = :step REMOVE totp_pending',
    ConditionExpression: 'totp_pending = :s',
    ExpressionAttributeValues: { ':s': pending, ':step': step },
  });
  return outcome.written;
}

export async function removeTotp(userId: string): Promise<void> {
  await updateIf({ TableName: table(), Key: { item_key: credentialKey(userId) }, UpdateExpression: 'REMOVE totp_secret, totp_pending, totp_last_step', ConditionExpression: 'attribute_exists(item_key)' });
}

/**
 * Spends the TOTP code of `step`: only when no code of this step or a later one was accepted before, so a
 * code read over someone's shoulder, or sent twice at once, works once. False: already spent.
 */
export async function spendTotpStep(userId: string, step: number): Promise<boolean> {
  const outcome = await updateIf({
    TableName: table(),
    Key: { item_key: credentialKey(userId) },
    UpdateExpression: 'SET totp_last_step = :step',
    ConditionExpression: 'attribute_exists(totp_secret) AND (attribute_not_exists(totp_last_step) OR totp_last_step < :step)',
    ExpressionAttributeValues: { ':step': step },
  });
  return outcome.written;
}

export interface Invitation {
  userId: string;
  tenantId: string;
  login: string;
  email: string | undefined;
  expiresAt: number;
}

export async function putInvite(hash: string, invite: Invitation): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: { item_key: inviteKey(hash), user_id: invite.userId, tenant_id: invite.tenantId, login: invite.login, ...(invite.email ? { email: invite.email } : {}), expires_at: invite.expiresAt },
      ConditionExpression: 'attribute_not_exists(item_key)',
    }),
  );
}

/**
 * Spends an invitation: deleted on condition that it is still unexpired and of this tenant, so of two
 * concurrent uses exactly one gets it. Undefined: unknown, spent, expired or another tenant's.
 */
export async function takeInvite(hash: string, tenantId: string, now: number): Promise<Invitation | undefined> {
  const outcome = await deleteIf({
    TableName: table(),
    Key: { item_key: inviteKey(hash) },
    ConditionExpression: 'attribute_exists(item_key) AND expires_at > :now AND tenant_id = :t',
    ExpressionAttributeValues: { ':now': now, ':t': tenantId },
    ReturnValues: 'ALL_OLD',
  });
  if (!outcome.written) return undefined;
  const item = outcome.output.Attributes ?? {};
  return { userId: String(item.user_id), tenantId: String(item.tenant_id), login: String(item.login), email: typeof item.email === 'string' ? item.email : undefined, expiresAt: Number(item.expires_at) };
}

/** Puts an invitation back (its acceptance failed before anything was set). */
export async function restoreInvite(hash: string, invite: Invitation): Promise<void> {
  await putInvite(hash, invite);
}

/** Removes a rate-limit counter, so its window starts over (the operator clearing a sign-in lockout). */
export async function resetCounter(bucket: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: tableName('rateLimits'), Key: { bucket } }));
}
