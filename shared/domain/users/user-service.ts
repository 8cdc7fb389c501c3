import { createUser as putUser, expireToken as storeExpiry, getUser } from '../../db/repositories/user-repository';
import { RuleError } from '../errors';
import { writeWithLedger } from '../ledger/ledger';
import { randomId } from '../../ids';
import { requireTenant } from '../tenants/tenant-service';
import { generateToken, hashToken } from './tokens';
import type { User } from '../../records/user';

const userNotFound = (userId: string) => new RuleError('user_not_found', `unknown user ${userId}`);

/** Creates a user with a fresh token; the token is returned once and only its hash is stored. */
export async function createUser(input: { tenantId: string; name?: string | undefined; balance?: number | undefined }, now: number): Promise<{ user: User; token: string }> {
  const tenant = await requireTenant(input.tenantId);
  const token = generateToken();
  const userId = randomId('u_');
  await putUser({ userId, tenantId: tenant.tenantId, name: input.name ?? '', balance: 0, tokenHash: hashToken(token), createdAt: now });
  // The starting balance is the ledger's first entry. A crash between the two writes leaves a user at 0 with
  // an empty ledger, which still adds up.
  if (input.balance) await writeWithLedger({ userId, change: { amount: input.balance, kind: 'opening', ref: { note: 'balance at creation' }, at: now } });
  return { user: (await getUser(userId))!, token };
}

export async function requireUser(userId: string): Promise<User> {
  const user = await getUser(userId);
  if (!user) throw userNotFound(userId);
  return user;
}

export { rotateToken } from './token-rotation';

export async function expireToken(userId: string, at: number): Promise<User> {
  const user = await storeExpiry(userId, at);
  if (!user) throw userNotFound(userId);
  return user;
}

/** The operator's credit, with its `credit` entry in the same transaction. */
export async function credit(userId: string, amount: number, now: number, note?: string): Promise<User> {
  const outcome = await writeWithLedger({ userId, change: { amount, kind: 'credit', ref: note ? { note } : {}, at: now } });
  if (!outcome.ok) throw userNotFound(userId);
  return requireUser(userId);
}
