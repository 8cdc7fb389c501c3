import { healthAlertField } from '../../shared/validation/source-settings';
import { effectiveHealthAlert, HEALTH_ALERT_DEFAULTS } from '../../shared/records/health-alert';
import { allHealthShards, healthSchedule, healthShard, HEALTH_SHARDS } from '../../shared/records/link-health';

function withPrivateFetch<T>(value: string | undefined, run: () => T): T {
  const saved = process.env.FETCH_ALLOW_PRIVATE;
  if (value === undefined) delete process.env.FETCH_ALLOW_PRIVATE;
  else process.env.FETCH_ALLOW_PRIVATE = value;
  try {
    return run();
  } finally {
    if (saved === undefined) delete process.env.FETCH_ALLOW_PRIVATE;
    else process.env.FETCH_ALLOW_PRIVATE = saved;
  }
}

describe('health_alert configuration', () => {
  test('deployed (private addresses not allowed), the webhook must be https; locally plain http is accepted too', () => {
    const config = { enabled: true, webhook_url: 'http://127.0.0.1:9999/hook' };
    withPrivateFetch(undefined, () => {
      expect(healthAlertField().safeParse(config).success).toBe(false);
      expect(healthAlertField().safeParse({ ...config, webhook_url: 'https://hooks.example.com/x' }).success).toBe(true);
      // Stored while it was allowed, it no longer counts once the rule is on.
      expect(effectiveHealthAlert(config).enabled).toBe(false);
    });
    withPrivateFetch('1', () => expect(healthAlertField().safeParse(config).success).toBe(true));
  });

  test('{} is off; defaults fill what the owner left out; a JSON string is accepted', () => {
    expect(effectiveHealthAlert({})).toMatchObject({ enabled: false });
    expect(effectiveHealthAlert(undefined)).toMatchObject({ enabled: false });
    expect(effectiveHealthAlert({ enabled: true, webhook_url: 'https://h.example.com/a' })).toEqual({
      enabled: true,
      webhookUrl: 'https://h.example.com/a',
      intervalMinutes: HEALTH_ALERT_DEFAULTS.interval_minutes,
      failureThreshold: HEALTH_ALERT_DEFAULTS.failure_threshold,
      notifyRecovery: true,
      secret: undefined,
    });
    expect(healthAlertField().parse('{"enabled":false,"interval_minutes":5,"failure_threshold":10}')).toEqual({ enabled: false, interval_minutes: 5, failure_threshold: 10 });
    expect(healthAlertField().safeParse({ secret: 'x'.repeat(16) }).success).toBe(true);
    expect(healthAlertField().safeParse({ secret: '😀'.repeat(16) }).success).toBe(true);
  });

  test('objects stored before the rules count as off', () => {
    for (const legacy of [{ enabled: true, email: 'a@example.com' }, { webhook: 'https://h.example.com' }, { enabled: 1, webhook_url: 'https://h.example.com' }, 'nope', [1]]) {
      expect(effectiveHealthAlert(legacy).enabled).toBe(false);
    }
  });

  test('alerting on puts the source on one of the schedule partitions, due now; off takes it out', () => {
    const on = effectiveHealthAlert({ enabled: true, webhook_url: 'https://h.example.com/a' });
    expect(healthSchedule('s_abc', on, 1234)).toEqual({ set: { health_shard: healthShard('s_abc'), health_due_at: 1234 } });
    expect(healthSchedule('s_abc', effectiveHealthAlert({}), 1234)).toEqual({ remove: ['health_shard', 'health_due_at'] });
    const used = new Set(Array.from({ length: 2000 }, (_, i) => healthShard(`s_${i}`)));
    expect([...used].sort()).toEqual(allHealthShards().sort());
    expect(used.size).toBe(HEALTH_SHARDS);
  });
});
