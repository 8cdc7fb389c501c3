/**
 * Link health: what a probe of a download URL found, what is recorded per app, what the owner sees, and
 * where a source sits in the checker's schedule.
 */
import { createHash } from 'node:crypto';
import type { App } from './app';
import type { HealthAlertConfig } from './health-alert';
import type { FileValidators } from './ipa-inspection';

export type ProbeError = 'http_status' | 'timeout' | 'dns' | 'refused' | 'tls' | 'redirects';

export interface ProbeOutcome {
  healthy: boolean;
  /** HTTP status of the last answer; 0 when none came. */
  status: number;
  error?: ProbeError;
  /** What the healthy answer said of the file (length, ETag, Last-Modified): link health notices a replaced IPA. */
  file?: FileValidators;
}

export interface HealthRecord {
  appId: number;
  url: string;
  health: 'ok' | 'failing';
  lastStatus: number;
  lastError: string | undefined;
  /** Unix seconds. */
  lastChecked: number;
  /** Consecutive failed probes. */
  failures: number;
  /** A failing alert went out for the current streak. */
  alerted: boolean;
  /** The file as the last healthy probe saw it. */
  file?: FileValidators | undefined;
}

/** The timing rules of link health, in one place. */
export const LINK_HEALTH_LIMITS = {
  /** One probe (HEAD and, if needed, the ranged GET) gets this long in all. */
  probeTimeoutMs: 10_000,
  maxRedirects: 3,
  /** An on-demand check probes at most this many apps, starting no probe that could end after the window. */
  onDemandMaxApps: 25,
  onDemandWindowMs: 20_000,
  /** Probes running at once for one source. */
  appConcurrency: 4,
  /** Sources checked at once by one scheduled run. */
  sourceConcurrency: 4,
} as const;

/** The schedule is spread over this many index partitions, so no single key takes every checker read. */
export const HEALTH_SHARDS = 16;

export function healthShard(sourceId: string): string {
  return `s${createHash('sha256').update(sourceId).digest().readUInt32BE(0) % HEALTH_SHARDS}`;
}

export const allHealthShards = (): string[] => Array.from({ length: HEALTH_SHARDS }, (_, i) => `s${i}`);

/**
 * The schedule attributes an update of `health_alert` writes: alerting on → due at once; off → out of the
 * schedule.
 */
export function healthSchedule(sourceId: string, config: HealthAlertConfig, now: number): { set?: Record<string, unknown>; remove?: string[] } {
  return config.enabled ? { set: { health_shard: healthShard(sourceId), health_due_at: now } } : { remove: ['health_shard', 'health_due_at'] };
}

/** A record counts for an app only while it is about the app's current URL. */
export function currentRecord(app: Pick<App, 'download_url'>, record: HealthRecord | undefined): HealthRecord | undefined {
  return record && record.url === app.download_url ? record : undefined;
}

/** What the owner sees per published app; `unknown` before the first probe of its current URL. */
export function appHealthView(app: App, record: HealthRecord | undefined) {
  const current = currentRecord(app, record);
  return {
    app_id: app.id,
    name: app.name,
    version: app.version,
    url: app.download_url,
    health: current?.health ?? 'unknown',
    last_status: current?.lastStatus ?? 0,
    last_checked: current?.lastChecked ?? 0,
    failures: current?.failures ?? 0,
    // The file behind the link is not the one that was inspected at publish: the owner should re-inspect it.
    file_changed: fileChanged(app, current),
  };
}

function fileChanged(app: App, record: HealthRecord | undefined): boolean {
  const inspected = app.ipa && app.ipa.url === app.download_url && app.ipa.state === 'ok' ? app.ipa.validators : undefined;
  if (!inspected || !record?.file) return false;
  return differs(inspected.length, record.file.length) || differs(inspected.etag, record.file.etag) || differs(inspected.lastModified, record.file.lastModified);
}

const differs = <T>(a: T | undefined, b: T | undefined) => a !== undefined && b !== undefined && a !== b;
