import { DomainError } from '../errors';
import { findTokenOwner } from '../../db/repositories/user-repository';
import { hashToken } from './tokens';
import type { TokenOwner } from '../../records/user';

/** The user holding `token`; an unknown or rotated token is invalid, one past its expiry is expired. */
export async function authenticate(token: string, nowSeconds: number): Promise<TokenOwner> {
  const user = await findTokenOwner(hashToken(token));
  if (!user) throw new DomainError('token_invalid', 'token_invalid');
  if (user.tokenExpiresAt !== undefined && user.tokenExpiresAt <= nowSeconds) throw new DomainError('token_expired', 'token_expired');
  return user;
}
