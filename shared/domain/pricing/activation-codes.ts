/**
 * Activation codes: prepaid adds. A code belongs to a tenant, is for one mode and fixes
 * the warranty tier; it is used once.
 */
import { randomBytes } from 'node:crypto';
import { getCode, putCode } from '../../db/repositories/code-repository';
import { getUser } from '../../db/repositories/user-repository';
import type { AccountMode } from '../../records/account';
import { RuleError } from '../errors';
import type { ActivationCode } from '../../records/activation-code';
import { tierAllowedIn } from './warranty';

// No 0/O or 1/I: codes are read aloud and typed from screenshots.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const CODE_PATTERN = /^[A-Z0-9]{4,64}$/;

function newCode(): string {
  return [...randomBytes(16)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

export async function createCode(input: { userId: string; mode: AccountMode; tier: number }, now: number): Promise<ActivationCode> {
  const user = await getUser(input.userId);
  if (!user) throw new RuleError('user_not_found', `unknown user ${input.userId}`);
  if (!tierAllowedIn(input.mode, input.tier)) throw new RuleError('tier_not_sold', `a ${input.mode} code cannot carry warranty ${input.tier}`);
  const code: ActivationCode = { code: newCode(), tenantId: user.tenantId, mode: input.mode, tier: input.tier, createdFor: user.userId, createdAt: now, usedBy: undefined, usedAt: undefined };
  await putCode(code);
  return code;
}

/** Codes are stored upper-case; clients may send them in either case. */
export function findCode(code: string): Promise<ActivationCode | undefined> {
  return getCode(code.trim().toUpperCase());
}
