/**
 * The scheduled functions of the route table, run on short intervals by the local runtime: the reservation
 * worker every few seconds (so a review add finishes about when the simulator enables the device, and an
 * Apple account's certificate renewal moves on as it does deployed), the
 * link-health checker every few seconds (a source is still checked only when its own interval comes due)
 * and the revocation sweep and the deleted sources' purge every minute. Deployed, EventBridge runs the same handlers on `scheduledJobs`'
 * schedule.
 *
 * Downloads: the gate's log lines are collected in this process and summed per app and day every 2 s, as the
 * deployed log subscription's aggregator sums the gate's log group.
 *
 * Events: deployed, the `events` table's stream invokes the dispatcher for each new event and the retry job
 * reads the due index every minute. Here the retry pass runs every second and makes the first attempts too,
 * from the same outbox and the same `dispatchStoredEvent`: the due index already lists every event owed a
 * delivery, so a poll needs no stream emulation (DynamoDB Local does serve streams, but reading them means a
 * shard-iterator loop standing in for Lambda's event source mapping, code that would run nowhere but here).
 */
import { nowSeconds } from '../../shared/clock';
import { runRevocationSweep } from '../../shared/domain/accounts/revocation-sweep';
import { runLinkHealthChecker } from '../../shared/domain/link-health/checker';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { runAccountRenewals } from '../../shared/domain/accounts/renewal-job';
import { runSourcePurge } from '../../shared/domain/sources/source-purge';
import { runBalanceLowPass } from '../../shared/domain/events/balance-low';
import { runSubscriptionNoticePass } from '../../shared/domain/events/subscription-notices';
import { runDispatchPass } from '../../shared/domain/events/dispatcher';
import { runIpaInspector } from '../../shared/domain/ipa/inspection-job';
import { startLocalDownloadCounting } from '../../shared/domain/stats/download-counts';

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

export function startBackgroundJobs(options: { workerEveryMs?: number; sweepEveryMs?: number; linkHealthEveryMs?: number; eventsEveryMs?: number; ipaInspectorEveryMs?: number; downloadsEveryMs?: number } = {}): BackgroundJobs {
  // The gate's download lines, collected in this process and summed per app and day as the deployed log
  // subscription's aggregator does (shared/domain/stats/download-counts.ts).
  const downloads = startLocalDownloadCounting();
  const jobs = [
    every(options.downloadsEveryMs ?? 2_000, () => downloads.flush(nowSeconds())),
    every(options.workerEveryMs ?? 5_000, async () => {
      await runReservationWorker(nowSeconds());
      await runBalanceLowPass(nowSeconds());
      await runSubscriptionNoticePass(nowSeconds());
      await runAccountRenewals(nowSeconds(), { budgetMs: 20_000 });
    }),
    every(options.eventsEveryMs ?? 1_000, () => runDispatchPass(nowSeconds())),
    every(options.linkHealthEveryMs ?? 5_000, () => runLinkHealthChecker(nowSeconds())),
    every(options.sweepEveryMs ?? 60_000, () => runRevocationSweep(nowSeconds())),
    every(options.sweepEveryMs ?? 60_000, () => runSourcePurge()),
    every(options.ipaInspectorEveryMs ?? 5_000, () => runIpaInspector(nowSeconds())),
  ];
  return {
    stop: async () => {
      await Promise.all(jobs.map((j) => j.stop()));
      await downloads.flush(nowSeconds()).catch(() => undefined);
      downloads.stop();
    },
  };
}
