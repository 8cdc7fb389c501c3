/** The owner's on-demand link check: its own module, so the read-only health view carries no fetch code. */
import { ownedSource } from '../sources/source-service';
import type { Actor } from '../../records/source';
import { checkSourceLinks, type CheckOptions } from './checker';
import { LINK_HEALTH_LIMITS } from '../../records/link-health';
import { DEFAULT_DELIVERY } from './webhook';

/**
 * Probes the owner's source now: at most 25 apps and no probe starting that could end after 20 s (the
 * least recently checked first, so repeated calls work through a large source). Counts toward alert
 * thresholds like a scheduled probe, but leaves the schedule where it is. Alerts it triggers are delivered
 * before answering, within a few more seconds, so the call stays inside API Gateway's limit.
 */
export async function checkSourceHealthNow(actor: Actor, sourceId: string, overrides: Partial<CheckOptions> = {}) {
  const source = await ownedSource(actor, sourceId);
  const started = Date.now();
  const deadline = started + LINK_HEALTH_LIMITS.onDemandWindowMs;
  const result = await checkSourceLinks(source, {
    probe: { timeoutMs: LINK_HEALTH_LIMITS.probeTimeoutMs, maxRedirects: LINK_HEALTH_LIMITS.maxRedirects },
    delivery: { ...DEFAULT_DELIVERY, deadline: deadline + 5_000 },
    appConcurrency: LINK_HEALTH_LIMITS.appConcurrency,
    maxApps: LINK_HEALTH_LIMITS.onDemandMaxApps,
    deadline,
    ...overrides,
  });
  return { source_id: source.source_id, checked: result.checked, remaining: result.remaining, apps: result.apps };
}
