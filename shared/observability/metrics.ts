/**
 * Business and job metrics as CloudWatch embedded metric format lines (Powertools Metrics). Each call writes
 * one metric at once, so no handler has to flush at the end of its invocation. Only the functions that call
 * these import Powertools Metrics. Tests and the local runtime set POWERTOOLS_METRICS_DISABLED.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricUnit as Unit } from '@aws-lambda-powertools/metrics/types';
import { metricNames } from './metric-names';

const metrics = new Metrics();

function emit(name: string, unit: Unit, value: number, dimensions: Record<string, string> = {}): void {
  const single = metrics.singleMetric();
  for (const [key, dimension] of Object.entries(dimensions)) single.addDimension(key, dimension);
  single.addMetric(name, unit, value);
}

export function addDelivered(mode: string): void {
  emit(metricNames.addsDelivered, MetricUnit.Count, 1, { mode });
}

export function addRefused(reason: string): void {
  emit(metricNames.addsRefused, MetricUnit.Count, 1, { reason });
}

export function addRefunded(reason: string): void {
  emit(metricNames.addsRefunded, MetricUnit.Count, 1, { reason });
}

export function appleError(kind: string): void {
  emit(metricNames.appleErrors, MetricUnit.Count, 1, { kind });
}

/** Per account and class for the dashboard, and once more without them: the alarm watches the minimum. */
export function freeSlots(accountId: string, deviceClass: string, free: number): void {
  emit(metricNames.freeSlots, MetricUnit.Count, free, { account: accountId, class: deviceClass });
  emit(metricNames.freeSlots, MetricUnit.Count, free);
}

export function reservationAge(seconds: number): void {
  emit(metricNames.reservationAge, MetricUnit.Seconds, seconds);
}

export function jobOutcome(job: string, outcome: 'run' | 'failed' | 'skipped'): void {
  const name = outcome === 'run' ? metricNames.jobRuns : outcome === 'failed' ? metricNames.jobFailures : metricNames.jobSkipped;
  emit(name, MetricUnit.Count, 1, { job });
}
