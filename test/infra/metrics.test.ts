/**
 * The service's metrics as CloudWatch receives them: one embedded-metric-format line per call, in the
 * stack's namespace, with the `service` dimension the alarms select on.
 */
import { jest } from '@jest/globals';

process.env.POWERTOOLS_METRICS_DISABLED = 'false';
process.env.POWERTOOLS_METRICS_NAMESPACE = 'UnitStack';
process.env.POWERTOOLS_SERVICE_NAME = 'appsource';
const metrics = await import('../../shared/observability/metrics');

interface Emf {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

function captured(action: () => void): Emf[] {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    action();
  } finally {
    spy.mockRestore();
  }
  return lines.flatMap((l) => l.split('\n')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Emf);
}

test('a refused add is one Count in the stack namespace, by service and reason', () => {
  const [line, ...rest] = captured(() => metrics.addRefused('insufficient_balance'));
  expect(rest).toEqual([]);
  expect(line!._aws.CloudWatchMetrics).toEqual([{ Namespace: 'UnitStack', Dimensions: [['service', 'reason']], Metrics: [{ Name: 'AddsRefused', Unit: 'Count' }] }]);
  expect(line).toMatchObject({ service: 'appsource', reason: 'insufficient_balance', AddsRefused: 1 });
});

test('free slots are written per account and class, and once with the service alone (what the alarm watches)', () => {
  const lines = captured(() => metrics.freeSlots('a_1', 'iphone', 7));
  expect(lines.map((l) => l._aws.CloudWatchMetrics[0]!.Dimensions)).toEqual([[['service', 'account', 'class']], [['service']]]);
  expect(lines.map((l) => l.FreeSlots)).toEqual([7, 7]);
});

test('job outcomes, reservation ages, refunds, deliveries and Apple errors have their own names', () => {
  const lines = captured(() => {
    metrics.jobOutcome('reservation-worker', 'run');
    metrics.jobOutcome('reservation-worker', 'failed');
    metrics.jobOutcome('reservation-worker', 'skipped');
    metrics.reservationAge(3600);
    metrics.addRefunded('timed_out');
    metrics.addDelivered('review');
    metrics.appleError('rate_limited');
  });
  expect(lines.map((l) => l._aws.CloudWatchMetrics[0]!.Metrics[0]!.Name)).toEqual([
    'JobRuns',
    'JobFailures',
    'JobSkipped',
    'ReservationAgeSeconds',
    'AddsRefunded',
    'AddsDelivered',
    'AppleErrors',
  ]);
  expect(lines[0]).toMatchObject({ job: 'reservation-worker' });
  expect(lines[3]!._aws.CloudWatchMetrics[0]!.Metrics[0]!.Unit).toBe('Seconds');
});
