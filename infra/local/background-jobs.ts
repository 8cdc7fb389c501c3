/**
 * The scheduled functions of the route table, run on short intervals by the local runtime: the reservation
 * worker every few seconds (so a review add finishes about when the simulator enables the device), the
 * link-health checker every few seconds (a source is still checked only when its own interval comes due)
 * and the revocation sweep every minute. Deployed, EventBridge runs the same handlers on `scheduledJobs`'
 * schedule.
 */
import { nowSeconds } from '../../shared/clock';
import { runRevocationSweep } from '../../shared/domain/accounts/revocation-sweep';
import { runLinkHealthChecker } from '../../shared/domain/link-health/checker';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { runIpaInspector } from '../../shared/domain/ipa/inspection-job';

export interface BackgroundJobs {
  stop(): Promise<void>;
}

function every(ms: number, job: () => Promise<unknown>): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    // A pass that outlives the interval is not started twice.
    if (running) return;
    running = job()
      .catch((error: unknown) => console.error('Background job failed', error))
      .finally(() => (running = undefined));
  }, ms);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

export function startBackgroundJobs(options: { workerEveryMs?: number; sweepEveryMs?: number; linkHealthEveryMs?: number; ipaInspectorEveryMs?: number } = {}): BackgroundJobs {
  const jobs = [
    every(options.workerEveryMs ?? 5_000, () => runReservationWorker(nowSeconds())),
    every(options.linkHealthEveryMs ?? 5_000, () => runLinkHealthChecker(nowSeconds())),
    every(options.sweepEveryMs ?? 60_000, () => runRevocationSweep(nowSeconds())),
    every(options.ipaInspectorEveryMs ?? 5_000, () => runIpaInspector(nowSeconds())),
  ];
  return { stop: async () => void (await Promise.all(jobs.map((j) => j.stop()))) };
}
