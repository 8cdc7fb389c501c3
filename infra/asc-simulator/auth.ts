import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { appleErrors } from './apple-errors';
import type { SimApiKey, SimTeam } from './teams';

const MAX_LIFETIME_SECONDS = 20 * 60;

/**
 * Checks the bearer token as Apple does: issuer id and key id pick the team's API key, ES256 signature, audience
 * `appstoreconnect-v1`, not expired, and `exp` at most 20 minutes after `iat`. Any failure is Apple's 401.
 */
export async function authenticate(
  authorization: string | undefined,
  teamOfKey: (issuerId: string, keyId: string) => SimTeam | undefined,
): Promise<{ team: SimTeam; key: SimApiKey }> {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (!token) throw appleErrors.notAuthorized();
  let team: SimTeam | undefined;
  let key: SimApiKey | undefined;
  try {
    const { kid } = decodeProtectedHeader(token);
    const { iss } = decodeJwt(token);
    team = kid && iss ? teamOfKey(iss, kid) : undefined;
    key = kid ? team?.keys.get(kid) : undefined;
  } catch {
    throw appleErrors.notAuthorized();
  }
  if (!team || !key || key.revoked) throw appleErrors.notAuthorized();

  let lifetime: number;
  try {
    const { payload } = await jwtVerify(token, key.publicKey, {
      algorithms: ['ES256'],
      audience: 'appstoreconnect-v1',
      issuer: team.issuerId,
      typ: 'JWT',
      requiredClaims: ['iat', 'exp'],
    });
    lifetime = (payload.exp ?? 0) - (payload.iat ?? 0);
  } catch {
    throw appleErrors.notAuthorized();
  }
  if (lifetime > MAX_LIFETIME_SECONDS) throw appleErrors.notAuthorized();
  return { team, key };
}
