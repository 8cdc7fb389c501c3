/**
 * The profile's `Challenge`: a compact JWS (HS256 under the tenant's challenge secret) naming the tenant, the
 * source, the reseller and the return target, with a random nonce and a 15-minute expiry. The device sends it
 * back inside its signed answer; the nonce is used once (recorded with the capture).
 */
import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { CHALLENGE_TTL_SECONDS } from '../../records/udid-capture';

export interface ChallengeClaims {
  tenantId: string;
  sourceId: string;
  ownerId: string;
  returnUrl: string;
  nonce: string;
  expiresAt: number;
}

const AUDIENCE = 'udid-profile-service';

export async function issueChallenge(secret: Uint8Array, claims: Omit<ChallengeClaims, 'nonce' | 'expiresAt'>, now: number): Promise<ChallengeClaims & { token: string }> {
  const nonce = randomBytes(16).toString('base64url');
  const expiresAt = now + CHALLENGE_TTL_SECONDS;
  const token = await new SignJWT({ t: claims.tenantId, s: claims.sourceId, o: claims.ownerId, r: claims.returnUrl })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(AUDIENCE)
    .setJti(nonce)
    .setIssuedAt(now)
    .setExpirationTime(expiresAt)
    .sign(secret);
  return { ...claims, nonce, expiresAt, token };
}

export type ChallengeProblem = 'challenge_invalid' | 'challenge_expired';

/** The challenge's claims, or why it cannot be used: forged, another tenant's, or expired. */
export async function readChallenge(secret: Uint8Array, token: string, tenantId: string, now: number): Promise<ChallengeClaims | ChallengeProblem> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], audience: AUDIENCE, currentDate: new Date(now * 1000), clockTolerance: 0 });
    const { t, s, o, r, jti, exp } = payload as Record<string, unknown>;
    if (t !== tenantId || typeof s !== 'string' || typeof o !== 'string' || typeof r !== 'string' || typeof jti !== 'string' || typeof exp !== 'number') return 'challenge_invalid';
    return { tenantId: t, sourceId: s, ownerId: o, returnUrl: r, nonce: jti, expiresAt: exp };
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'challenge_expired' : 'challenge_invalid';
  }
}
