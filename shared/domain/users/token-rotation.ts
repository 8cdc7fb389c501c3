import { replaceToken } from '../../db/repositories/user-repository';
import { RuleError } from '../errors';
import { generateToken, hashToken } from './tokens';

/**
 * Issues a new token; the old one is refused from this moment. Its own module: the console rotates a token
 * too (shared/domain/console), without carrying the rest of the user service.
 */
export async function rotateToken(userId: string): Promise<string> {
  const token = generateToken();
  if (!(await replaceToken(userId, hashToken(token)))) throw new RuleError('user_not_found', `unknown user ${userId}`);
  return token;
}
