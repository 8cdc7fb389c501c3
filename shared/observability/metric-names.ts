/**
 * The service's own CloudWatch metrics (embedded metric format, written by `metrics.ts`) and their
 * dimensions. The stack's alarms and dashboard read the same names, so they live here, free of any
 * Powertools import. Every metric also carries the `service` dimension (POWERTOOLS_SERVICE_NAME), and the
 * namespace is the stack's name (POWERTOOLS_METRICS_NAMESPACE), so two stacks in one account stay apart.
 */
export const metricNames = {
  /** An add answered with a certificate (or, in review mode, a reservation). Dimension: mode. */
  addsDelivered: 'AddsDelivered',
  /** An add refused with `code` 0. Dimension: reason (the response's `data.error`). */
  addsRefused: 'AddsRefused',
  /** A charge given back: a failed review reservation, an add's hold after Apple failed or the add could not be recorded, a stale hold. Dimension: reason. */
  addsRefunded: 'AddsRefunded',
  /** An App Store Connect call that failed. Dimension: kind. */
  appleErrors: 'AppleErrors',
  /** Free device slots of one account and class. Per account: dimensions account, class; without them, the alarm's minimum. */
  freeSlots: 'FreeSlots',
  /** Age in seconds of each pending reservation the worker looks at. */
  reservationAge: 'ReservationAgeSeconds',
  /** A scheduled job's run that held the lease and finished; failed (threw); or skipped (another run held it). Dimension: job. */
  jobRuns: 'JobRuns',
  jobFailures: 'JobFailures',
  jobSkipped: 'JobSkipped',
} as const;

export const SERVICE_DIMENSION = 'service';
