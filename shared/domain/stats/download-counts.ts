/**
 * The aggregator of the gate's download lines (shared/observability/download-log.ts): a batch of lines summed per
 * app and UTC day, one `ADD` per distinct app and day, counted at most once per batch (app-tally-repository.ts).
 *
 * - `countDownloads(lines, batchId, now)` — what both paths call: deployed, `countLogBatch` with a CloudWatch Logs
 *   subscription's batch (its first log event id names it); locally, the background jobs with what the sink
 *   collected.
 * - `startLocalDownloadCounting()` — the local runtime's sink and its flush.
 */
import { gunzipSync } from 'node:zlib';
import { addDownloadCounts, appDayKey, utcDay } from '../../db/repositories/app-tally-repository';
import { downloadLinesOf, setDownloadSink, type DownloadLine } from '../../observability/download-log';
import { randomId } from '../../ids';

export async function countDownloads(lines: readonly DownloadLine[], batchId: string, now: number): Promise<{ lines: number; keys: number }> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const key = appDayKey(line.owner, line.source, line.app, utcDay(line.at));
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  if (counts.size > 0) await addDownloadCounts(batchId, counts, now);
  return { lines: lines.length, keys: counts.size };
}

/** A CloudWatch Logs subscription's event: base64 of the gzipped batch. */
export interface LogsSubscriptionEvent {
  awslogs: { data: string };
}

/** Whether a Lambda event is a CloudWatch Logs subscription's batch (the only event with `awslogs.data`). */
export function isLogsSubscriptionEvent(event: unknown): event is LogsSubscriptionEvent {
  const awslogs = (event as { awslogs?: { data?: unknown } } | null | undefined)?.awslogs;
  return typeof awslogs?.data === 'string';
}

/** Counts a subscription batch (the gate's log group, filtered on the download field), once per batch. */
export async function countLogBatch(event: LogsSubscriptionEvent, now: number): Promise<{ lines: number; keys: number }> {
  const batch = JSON.parse(gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8')) as { messageType: string; logEvents?: Array<{ id: string; message: string }> };
  if (batch.messageType !== 'DATA_MESSAGE' || !batch.logEvents?.length) return { lines: 0, keys: 0 };
  return countDownloads(downloadLinesOf(batch.logEvents.map((e) => e.message)), batch.logEvents[0]!.id, now);
}

/**
 * The local runtime: collect the lines in memory and hand them to the aggregator at each `flush` (a random batch
 * id: each flush is its own batch). Lines collected while a flush writes wait for the next one.
 */
export function startLocalDownloadCounting(): { flush(now: number): Promise<unknown>; stop(): void } {
  let pending: DownloadLine[] = [];
  // A batch that failed is sent again under its own id, so what it counted before is not counted twice.
  let retry: { id: string; lines: DownloadLine[] } | undefined;
  setDownloadSink((line) => void pending.push(line));
  return {
    async flush(now) {
      if (!retry && pending.length === 0) return;
      const batch = retry ?? { id: randomId('b', 16), lines: pending };
      if (!retry) pending = [];
      retry = batch;
      await countDownloads(batch.lines, batch.id, now);
      retry = undefined;
    },
    stop: () => setDownloadSink(undefined),
  };
}
