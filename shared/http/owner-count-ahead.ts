/**
 * Device info in one round trip (issue 41): the per-owner counter is keyed by the owner, and only the
 * credential's item names the owner, so a request counted after its token waits two round trips. But a token's
 * owner never changes for that token (its hash is bound to its user when it is issued; rotation, expiry and
 * revocation end it, they never re-point it), and a console session's likewise. So an instance that has checked
 * a credential remembers whose it is, and the next request with it has its owner's count made beside the
 * credential's read (`around` of `readWithToken`): 2 calls in 1 round trip. Nothing is taken on trust: the
 * credential is still read and checked (exists, live, of this tenant) and the route still checks that what it
 * read is the owner's before it answers. When the credential fails, the count made for the owner is given back
 * (it was never this request's) and the remembered owner forgotten; the request is then counted against its IP,
 * as any failed credential is. A credential this instance has not checked yet costs what it always did.
 * Handed in by device info only, so no other bundle carries it.
 */
import { giveBack } from '../db/repositories/rate-limit-repository';
import { hashToken } from '../domain/users/tokens';
import { logger } from '../logger';
import type { RouteDefinition } from '../routes/definitions';
import { chargeRequest, countsAhead, type RateLimitDecision } from './middlewares/rate-limit';
import type { ReadWithToken } from './middlewares/token-auth';

/** Credential hash -> the user it belongs to, as this instance last checked it. */
const owners = new Map<string, string>();
/** Bounds the map on an instance that serves many credentials. */
const MAX_OWNERS = 10_000;

/** `read` with the owner's count made beside the credential's check when this instance knows the owner. */
export function countingAhead(route: RouteDefinition & { rateLimit: number }, read: ReadWithToken): ReadWithToken {
  return {
    ...read,
    around: async (state, credential, check) => {
      const key = hashToken(credential);
      const expected = owners.get(key);
      const ahead = expected === undefined ? undefined : chargeRequest(route, { user: expected }, state.now);
      // Heard below or by the rate limit; marked handled so an outage is never an unhandled rejection.
      ahead?.catch(() => undefined);
      let checked;
      try {
        checked = await check();
      } catch (error) {
        if (ahead) {
          owners.delete(key);
          await giveBackAhead(ahead);
        }
        throw error;
      }
      if (ahead && checked.owner.userId === expected) {
        countsAhead.set(state, ahead);
      } else {
        if (ahead) await giveBackAhead(ahead);
        if (owners.size >= MAX_OWNERS) owners.clear();
        owners.set(key, checked.owner.userId);
      }
      return checked;
    },
  };
}

/**
 * A count made for an owner the credential did not prove: given back, so it does not stand against them. A
 * count that failed (an outage) took nothing; a give-back that fails leaves one count too many until the minute
 * ends, so it is logged, not thrown (the request is answered as its credential decides).
 */
async function giveBackAhead(ahead: Promise<RateLimitDecision>): Promise<void> {
  let decision: RateLimitDecision;
  try {
    decision = await ahead;
  } catch {
    return;
  }
  try {
    await giveBack(decision.bucket);
  } catch (error) {
    logger.warn('Rate-limit give-back failed', { bucket: decision.bucket, error: error as Error });
  }
}
