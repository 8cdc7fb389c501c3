/**
 * How long a scheduled job's function may run, derived from its interval so that one run is over (and its
 * lease expired, even if it was killed) before the next is due.
 */
import type { ScheduledJobDefinition } from '../../shared/routes';
import { LEASE_SLACK_SECONDS, RUN_SAFETY_MARGIN_MS } from '../../shared/jobs/run-limits';

/** Lambda's own ceiling would be 15 minutes; a job that needs more should do less per run. */
export const MAX_JOB_TIMEOUT_SECONDS = 300;
/** Room between a run's timeout and the next run: the lease's slack plus EventBridge's timing jitter. */
export const JOB_INTERVAL_MARGIN_SECONDS = 30;
/** Lambda's smallest allowed maximum event age. */
const MIN_EVENT_AGE_SECONDS = 60;

export function jobIntervalSeconds(job: Pick<ScheduledJobDefinition, 'function' | 'everyMinutes'>): number {
  if (!Number.isInteger(job.everyMinutes) || job.everyMinutes < 1) throw new Error(`Scheduled job "${job.function}": everyMinutes must be a whole number of minutes, at least 1`);
  return job.everyMinutes * 60;
}

/** Strictly shorter than the interval, with room for the lease's slack. */
export function jobTimeoutSeconds(job: Pick<ScheduledJobDefinition, 'function' | 'everyMinutes'>): number {
  return Math.min(MAX_JOB_TIMEOUT_SECONDS, jobIntervalSeconds(job) - JOB_INTERVAL_MARGIN_SECONDS);
}

/** An invocation still queued after one interval is dropped (to the failure queue): the next run is due anyway. */
export function jobMaxEventAgeSeconds(job: Pick<ScheduledJobDefinition, 'function' | 'everyMinutes'>): number {
  return Math.max(MIN_EVENT_AGE_SECONDS, jobIntervalSeconds(job));
}

// The lease outlives the run by LEASE_SLACK_SECONDS; it must be gone before the next run starts.
if (LEASE_SLACK_SECONDS >= JOB_INTERVAL_MARGIN_SECONDS) throw new Error('the lease slack must be shorter than the interval margin');
// The shortest timeout (a one-minute job) must leave the work some budget after the safety margin.
if (60 - JOB_INTERVAL_MARGIN_SECONDS <= RUN_SAFETY_MARGIN_MS / 1000) throw new Error('a one-minute job would have no working time');
