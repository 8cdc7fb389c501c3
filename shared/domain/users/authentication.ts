import { DomainError } from '../errors';
import { findTokenOwner, findTokenOwnerWith, type TokenSideRead } from '../../db/repositories/user-repository';
import { hashToken } from './tokens';
import type { TokenOwner } from '../../records/user';

/**
 * The user holding `token`; an unknown or rotated token is invalid, one past its expiry is expired. With
 * `tenantId` (the tenant of the request's host), a token of another tenant is answered exactly like an
 * unknown one, before its expiry is looked at: a token is valid only on its own tenant's site, and owns
 * nothing anywhere else.
 */
export async function authenticate(token: string, nowSeconds: number, tenantId?: string): Promise<TokenOwner> {
  return valid(await findTokenOwner(hashToken(token)), nowSeconds, tenantId);
}

/**
 * `authenticate`, with items read in the same round trip as the token (`reads`): they are handed back only
 * once the token is valid, and belong to whoever they belong to (the caller checks that they are the owner's).
 */
export async function authenticateWith<K extends string>(token: string, nowSeconds: number, tenantId: string | undefined, reads: Readonly<Record<K, TokenSideRead>>): Promise<{ owner: TokenOwner; items: Record<K, Record<string, unknown> | null> }> {
  const { owner, items } = await findTokenOwnerWith(hashToken(token), reads);
  return { owner: valid(owner, nowSeconds, tenantId), items };
}

function valid(user: TokenOwner | undefined, nowSeconds: number, tenantId: string | undefined): TokenOwner {
  if (!user || (tenantId !== undefined && user.tenantId !== tenantId)) throw new DomainError('token_invalid', 'token_invalid');
  if (user.tokenExpiresAt !== undefined && user.tokenExpiresAt <= nowSeconds) throw new DomainError('token_expired', 'token_expired');
  return user;
}
