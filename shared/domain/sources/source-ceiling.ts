/**
 * Ceilings per source, whatever the caller's address: per-IP limits alone let someone rotating IPv6
 * addresses send without bound. One counter per source and window (`ceiling#<what>#source:<id>#<window>`).
 */
import { incrementWithinLimit } from '../../db/repositories/rate-limit-repository';
import { minuteWindow, WINDOW_MS, type WindowKind } from '../../limit-windows';
import { DomainError } from '../errors';

/** Counts one request against the source's ceiling; over it → 429 `rate_limited` (fail closed). */
export async function chargeSourceCeiling(what: string, sourceId: string, limit: number, nowMs: number, window: WindowKind): Promise<void> {
  const w = minuteWindow(nowMs, WINDOW_MS[window]);
  let hit;
  try {
    hit = await incrementWithinLimit(`ceiling#${what}#source:${sourceId}#${w.id}`, limit, w.resetAt + 300);
  } catch (cause) {
    throw new DomainError('unavailable', 'rate_limit_unavailable', { cause });
  }
  if (!hit.allowed) {
    throw new DomainError('rate_limited', 'rate_limited', {
      messageKey: 'source_ceiling_reached',
      params: { limit, window, retry_after: w.retryAfter },
      data: { limit, retry_after: w.retryAfter },
    });
  }
}
