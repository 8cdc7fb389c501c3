import { DomainError } from '../errors';
import { findTokenOwner } from '../../db/repositories/user-repository';
import { hashToken } from './tokens';
import type { TokenOwner } from '../../records/user';

/**
 * The user holding `token`; an unknown or rotated token is invalid, one past its expiry is expired. With
 * `tenantId` (the tenant of the request's host), a token of another tenant is answered exactly like an
 * unknown one, before its expiry is looked at: a token is valid only on its own tenant's site, and owns
 * nothing anywhere else.
 */
export async function authenticate(token: string, nowSeconds: number, tenantId?: string): Promise<TokenOwner> {
  const user = await findTokenOwner(hashToken(token));
  if (!user || (tenantId !== undefined && user.tenantId !== tenantId)) throw new DomainError('token_invalid', 'token_invalid');
  if (user.tokenExpiresAt !== undefined && user.tokenExpiresAt <= nowSeconds) throw new DomainError('token_expired', 'token_expired');
  return user;
}
