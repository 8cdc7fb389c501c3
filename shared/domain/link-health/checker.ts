/**
 * The link-health checker: probes the published apps of a source, records each result, and sends the
 * alerts the records call for — one `link_failing` when a streak of failures reaches the threshold, one
 * `link_recovered` when an alerted link answers again. Used by the scheduled run (every due source) and
 * by the owner's on-demand check (one source, bounded).
 */
import { nowSeconds } from '../../clock';
import { listApps } from '../../db/repositories/app-repository';
import { getSource } from '../../db/repositories/source-repository';
import { claimFailingAlert, dueSources, listHealthRecords, moveHealthDue, recordProbe, unscheduleHealth } from '../../db/repositories/link-health-repository';
import { logger } from '../../logger';
import type { App } from '../../records/app';
import type { Source } from '../../records/source';
import { effectiveHealthAlert, type HealthAlertConfig } from '../../records/health-alert';
import { allHealthShards, appHealthView, currentRecord, LINK_HEALTH_LIMITS, type HealthRecord, type ProbeOutcome } from '../../records/link-health';
import { probeLink, type ProbeOptions } from './probe';
import { DEFAULT_DELIVERY, deliverAlert, type AlertBody, type DeliveryOptions } from './webhook';

export interface CheckOptions {
  probe: ProbeOptions;
  delivery: DeliveryOptions;
  appConcurrency: number;
  /** Probe at most this many apps (the least recently checked first). */
  maxApps?: number;
  /** Epoch ms: no probe starts that could end after it. */
  deadline: number;
}

export interface SourceCheck {
  checked: number;
  /** Published apps left unprobed by this check (limits reached); they stay due. */
  remaining: number;
  alerts: number;
  apps: ReturnType<typeof appHealthView>[];
}

/** Runs `task` over `items` with at most `limit` at once; `task` returning false stops further starts. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<boolean>): Promise<void> {
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < items.length) {
      const item = items[next++]!;
      if (!(await task(item))) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

function alertBody(event: AlertBody['event'], source: Source, app: App, outcome: ProbeOutcome, record: HealthRecord, checkedAt: number): AlertBody {
  return {
    event,
    source_id: source.source_id,
    app_id: app.id,
    name: app.name,
    version: app.version,
    url: app.download_url,
    status: outcome.status,
    error: outcome.healthy ? null : (outcome.error ?? 'http_status'),
    failures: record.failures,
    checked_at: checkedAt,
  };
}

/** Decides and sends what one recorded probe calls for; true when an alert went out. */
async function alertFor(
  config: HealthAlertConfig,
  source: Source,
  app: App,
  outcome: ProbeOutcome,
  recorded: { record: HealthRecord; endedAlertedStreak: boolean },
  checkedAt: number,
  delivery: DeliveryOptions,
): Promise<boolean> {
  // Alerting off: probes are recorded, nothing is sent (and no alert is claimed).
  if (!config.enabled || !config.webhookUrl) return false;
  const { record } = recorded;
  if (!outcome.healthy) {
    if (record.failures < config.failureThreshold || record.alerted) return false;
    if (!(await claimFailingAlert(source.source_id, app.id, config.failureThreshold))) return false;
    return deliverAlert(config.webhookUrl, config.secret, alertBody('link_failing', source, app, outcome, record, checkedAt), delivery);
  }
  if (!recorded.endedAlertedStreak || !config.notifyRecovery) return false;
  return deliverAlert(config.webhookUrl, config.secret, alertBody('link_recovered', source, app, outcome, record, checkedAt), delivery);
}

/** Probes the source's published apps within the options' limits, least recently checked first. */
export async function checkSourceLinks(source: Source, options: CheckOptions): Promise<SourceCheck> {
  const config = effectiveHealthAlert(source.health_alert);
  const published = (await listApps(source.source_id)).filter((app) => app.publish_status === 'published');
  const records = await listHealthRecords(source.source_id);
  const lastChecked = (app: App) => currentRecord(app, records.get(app.id))?.lastChecked ?? -1;
  const order = [...published].sort((a, b) => lastChecked(a) - lastChecked(b) || a.id - b.id).slice(0, options.maxApps ?? published.length);

  let checked = 0;
  let alerts = 0;
  await pool(order, options.appConcurrency, async (app) => {
    if (Date.now() + options.probe.timeoutMs > options.deadline) return false;
    const outcome = await probeLink(app.download_url, options.probe);
    const checkedAt = nowSeconds();
    const previous = records.get(app.id);
    const recorded = await recordProbe(source.source_id, app.id, app.download_url, outcome, checkedAt, previous !== undefined && previous.url !== app.download_url);
    records.set(app.id, recorded.record);
    checked++;
    if (await alertFor(config, source, app, outcome, recorded, checkedAt, options.delivery)) alerts++;
    return true;
  });
  return {
    checked,
    remaining: published.length - checked,
    alerts,
    apps: [...published].sort((a, b) => a.id - b.id).map((app) => appHealthView(app, records.get(app.id))),
  };
}

export interface CheckerReport {
  sources: number;
  checked: number;
  alerts: number;
  /** Sources left due because the run's budget ran out before all their apps were probed. */
  unfinished: number;
  errors: number;
}

export interface CheckerOptions {
  /** No probe starts that could end more than this after the run began. */
  budgetMs?: number;
  sourceConcurrency?: number;
  appConcurrency?: number;
  probe?: Partial<ProbeOptions>;
  delivery?: Partial<DeliveryOptions>;
  /** How long a claimed source is held by this run before another may take it (seconds). */
  leaseSeconds?: number;
}

/** The scheduled function runs for at most five minutes: start nothing new after four. */
const DEFAULT_BUDGET_MS = 240_000;
const DEFAULT_LEASE_SECONDS = 600;

/**
 * One scheduled pass over every due source. Each source is claimed by moving its due time forward with a
 * conditional write (so overlapping runs never check one source twice), checked, then scheduled one
 * interval ahead — or, when the budget ran out before all its apps were probed, left due at once.
 */
export async function runLinkHealthChecker(now: number, options: CheckerOptions = {}): Promise<CheckerReport> {
  const report: CheckerReport = { sources: 0, checked: 0, alerts: 0, unfinished: 0, errors: 0 };
  const deadline = Date.now() + (options.budgetMs ?? DEFAULT_BUDGET_MS);
  const probe: ProbeOptions = { timeoutMs: LINK_HEALTH_LIMITS.probeTimeoutMs, maxRedirects: LINK_HEALTH_LIMITS.maxRedirects, ...options.probe };
  const delivery: DeliveryOptions = { ...DEFAULT_DELIVERY, ...options.delivery };
  const lease = now + (options.leaseSeconds ?? DEFAULT_LEASE_SECONDS);

  // Start at a different partition each run, so a budget that runs out does not always starve the same ones.
  const shards = allHealthShards();
  const offset = Math.floor(Math.random() * shards.length);
  const rotated = [...shards.slice(offset), ...shards.slice(0, offset)];
  const due = (async function* () {
    for (const shard of rotated) {
      for await (const item of dueSources(shard, now)) {
        if (Date.now() + probe.timeoutMs > deadline) return;
        yield item;
      }
    }
  })();

  const checkOne = async (item: Source & { health_due_at: number }) => {
    if (!(await moveHealthDue(item.source_id, item.health_due_at, lease))) return;
    try {
      const source = await getSource(item.source_id);
      const config = effectiveHealthAlert(source?.health_alert);
      if (!source || !config.enabled) {
        await unscheduleHealth(item.source_id, lease);
        return;
      }
      report.sources++;
      const result = await checkSourceLinks(source, { probe, delivery: { ...delivery, deadline: deadline + delivery.attemptTimeoutMs * delivery.attempts }, appConcurrency: options.appConcurrency ?? LINK_HEALTH_LIMITS.appConcurrency, deadline });
      report.checked += result.checked;
      report.alerts += result.alerts;
      if (result.remaining > 0) report.unfinished++;
      await moveHealthDue(item.source_id, lease, result.remaining > 0 ? now : now + config.intervalMinutes * 60);
    } catch (error) {
      report.errors++;
      logger.warn('Link-health check of a source failed; it is retried on a later run', { sourceId: item.source_id, error: error as Error });
      await moveHealthDue(item.source_id, lease, now + 60).catch(() => undefined);
    }
  };

  await Promise.all(
    Array.from({ length: options.sourceConcurrency ?? LINK_HEALTH_LIMITS.sourceConcurrency }, async () => {
      for (let next = await due.next(); !next.done; next = await due.next()) await checkOne(next.value);
    }),
  );
  return report;
}
