import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { publishDraft } from '../../shared/db/repositories/app-repository';
import { getSource } from '../../shared/db/repositories/source-repository';
import { checkSourceLinks, runLinkHealthChecker } from '../../shared/domain/link-health/checker';
import { checkSourceHealthNow } from '../../shared/domain/link-health/health-check-service';
import { deliverAlert, type AlertBody } from '../../shared/domain/link-health/webhook';
import type { App } from '../../shared/records/app';
import { nowSeconds } from '../../shared/clock';
import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, type Owner } from '../support/fixtures';
import { startLocalServer, type LocalServer, type RecordedRequest } from '../support/local-server';

type Behaviour = 'ok' | 'fail' | 'hang' | 'no-head';

let api: TestApi;
/** The download host: each path answers as `behaviours` says (default ok). */
let downloads: LocalServer;
const behaviours = new Map<string, Behaviour>();
/** The webhook receiver: answers 200 and records every delivery. */
let hook: LocalServer;

beforeAll(async () => {
  api = await startTestApi();
  downloads = await startLocalServer((req, res) => answerDownload(req, res));
  hook = await startLocalServer((_req, res) => res.end('thanks'));
});
afterAll(async () => {
  await downloads.close();
  await hook.close();
  await api.close();
});

function answerDownload(req: RecordedRequest, res: ServerResponse) {
  switch (behaviours.get(req.path) ?? 'ok') {
    case 'ok':
      if (req.headers.range === 'bytes=0-0') res.writeHead(206, { 'Content-Range': 'bytes 0-0/100' }).end('P');
      else res.writeHead(200, { 'Content-Length': '100' }).end(req.method === 'HEAD' ? undefined : 'P'.repeat(100));
      return;
    case 'fail':
      res.writeHead(500).end('down');
      return;
    case 'no-head':
      if (req.method === 'HEAD') res.writeHead(405).end();
      else res.writeHead(206, { 'Content-Range': 'bytes 0-0/100' }).end('P');
      return;
    case 'hang':
      return;
  }
}

let pathCounter = 0;

/** A published app of `owner`'s source whose download link answers as `behaviour`; returns it and its path. */
async function publishedApp(owner: Owner, behaviour: Behaviour = 'ok', name = 'Probe App'): Promise<{ app: App; path: string }> {
  const path = `/files/${++pathCounter}.ipa`;
  behaviours.set(path, behaviour);
  const draft = await makeDraft(owner.source.source_id, { name, version: `1.0.${pathCounter}`, downloadUrl: `${downloads.url}${path}` });
  expect(await publishDraft({ tenantId: owner.user.tenantId, userId: owner.user.userId }, draft, 1000, 1_700_000_000)).toBe('published');
  return { app: { ...draft, publish_status: 'published', status: 1 }, path };
}

const SECRET = 'a-secret-of-24-characters';

/** Scheduled runs in this file see every test's sources; a hanging host there must not cost 10 s. */
const quick = { probe: { timeoutMs: 1_000 } };

async function setAlert(owner: Owner, healthAlert: Record<string, unknown>) {
  const res = await api.request('PATCH', `/api/appstore/manage/sources/${owner.source.source_id}`, { headers: owner.bearer, json: { health_alert: healthAlert } });
  expect(res.body.code).toBe(1);
}

const alertsOn = (owner: Owner, extra: Record<string, unknown> = {}) =>
  setAlert(owner, { enabled: true, webhook_url: `${hook.url}/hook`, secret: SECRET, failure_threshold: 2, ...extra });

/** Deliveries the webhook received about `owner`'s source, in order. */
function alertsFor(owner: Owner): { body: AlertBody; raw: string; request: RecordedRequest }[] {
  return hook.requests
    .map((request) => ({ request, raw: request.body, body: JSON.parse(request.body) as AlertBody }))
    .filter((a) => a.body.source_id === owner.source.source_id);
}

const check = (owner: Owner, headers: Record<string, string> = {}) =>
  api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/health/check`, { headers: { ...owner.bearer, ...headers } });
const health = (owner: Owner, headers: Record<string, string> = {}) =>
  api.request('GET', `/api/appstore/manage/sources/${owner.source.source_id}/health`, { headers: { ...owner.bearer, ...headers } });

describe('alerts', () => {
  test('one signed alert after failure_threshold consecutive failures, none per further probe, one recovery notice', async () => {
    const owner = await makeOwner();
    const { app, path } = await publishedApp(owner, 'fail');
    await alertsOn(owner);

    const first = await check(owner);
    expect(first.body).toMatchObject({ code: 1, data: { checked: 1, remaining: 0, apps: [{ app_id: app.id, health: 'failing', last_status: 500, failures: 1 }] } });
    expect(alertsFor(owner)).toHaveLength(0);

    await check(owner);
    await check(owner);
    const alerts = alertsFor(owner);
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    expect(alert!.body).toEqual({
      event: 'link_failing',
      source_id: owner.source.source_id,
      app_id: app.id,
      name: app.name,
      version: app.version,
      url: `${downloads.url}${path}`,
      status: 500,
      error: 'http_status',
      failures: 2,
      checked_at: expect.any(Number),
    });
    // The signature is the HMAC-SHA256 of the exact bytes received, keyed with the configured secret.
    expect(alert!.request.headers['x-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(alert!.raw).digest('hex')}`);
    expect(alert!.request.headers['content-type']).toBe('application/json');

    const seen = await health(owner);
    expect(seen.body.data).toEqual({
      source_id: owner.source.source_id,
      apps: [{ app_id: app.id, name: app.name, version: app.version, url: `${downloads.url}${path}`, health: 'failing', last_status: 500, last_checked: expect.any(Number), failures: 3, file_changed: false }],
    });

    behaviours.set(path, 'ok');
    const healed = await check(owner);
    expect(healed.body).toMatchObject({ data: { apps: [{ health: 'ok', last_status: 200, failures: 0 }] } });
    await check(owner);
    const after = alertsFor(owner);
    expect(after.map((a) => a.body.event)).toEqual(['link_failing', 'link_recovered']);
    expect(after[1]!.body).toMatchObject({ event: 'link_recovered', status: 200, error: null, failures: 0 });
    expect(after[1]!.request.headers['x-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(after[1]!.raw).digest('hex')}`);

    // A new streak alerts again, once.
    behaviours.set(path, 'fail');
    await check(owner);
    await check(owner);
    await check(owner);
    expect(alertsFor(owner).map((a) => a.body.event)).toEqual(['link_failing', 'link_recovered', 'link_failing']);
  });

  test('no duplicate alert when scheduled and on-demand checks race', async () => {
    const owner = await makeOwner();
    await publishedApp(owner, 'fail');
    await alertsOn(owner, { failure_threshold: 1 });
    await Promise.all([runLinkHealthChecker(nowSeconds(), quick), check(owner), check(owner), check(owner)]);
    await Promise.all([runLinkHealthChecker(nowSeconds() + 3600, quick), check(owner)]);
    expect(alertsFor(owner)).toHaveLength(1);
  });

  test('without a secret there is no signature header; notify_recovery false sends no recovery notice', async () => {
    const owner = await makeOwner();
    const { path } = await publishedApp(owner, 'fail');
    await setAlert(owner, { enabled: true, webhook_url: `${hook.url}/hook`, failure_threshold: 1, notify_recovery: false });
    await check(owner);
    const [alert] = alertsFor(owner);
    expect(alert!.request.headers['x-signature']).toBeUndefined();
    behaviours.set(path, 'ok');
    await check(owner);
    expect(alertsFor(owner)).toHaveLength(1);
  });

  test('alerting off ({} or a stored object predating the rules): probes are recorded, nothing is sent', async () => {
    const owner = await makeOwner();
    await publishedApp(owner, 'fail');
    await setAlert(owner, {});
    for (let i = 0; i < 3; i++) await check(owner);
    expect((await health(owner)).body.data).toMatchObject({ apps: [{ health: 'failing', failures: 3 }] });
    expect(alertsFor(owner)).toHaveLength(0);

    const legacy = await makeOwner();
    await publishedApp(legacy, 'fail');
    const source = (await getSource(legacy.source.source_id))!;
    // Written before the rules existed: an unknown key makes the whole object count as off.
    const checked = await checkSourceLinks({ ...source, health_alert: { enabled: true, webhook_url: `${hook.url}/hook`, failure_threshold: 1, email: 'x@example.com' } }, {
      probe: { timeoutMs: 2_000 },
      delivery: { attempts: 1, attemptTimeoutMs: 1_000, backoffMs: [] },
      appConcurrency: 2,
      deadline: Date.now() + 10_000,
    });
    expect(checked.checked).toBe(1);
    expect(alertsFor(legacy)).toHaveLength(0);
  });

  test('a hanging host hits the probe timeout and is reported as a timeout with status 0', async () => {
    const owner = await makeOwner();
    await publishedApp(owner, 'hang');
    await alertsOn(owner, { failure_threshold: 1 });
    const started = Date.now();
    const result = await checkSourceLinks((await getSource(owner.source.source_id))!, {
      probe: { timeoutMs: 300 },
      delivery: { attempts: 1, attemptTimeoutMs: 1_000, backoffMs: [] },
      appConcurrency: 2,
      deadline: Date.now() + 10_000,
    });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result.apps).toMatchObject([{ health: 'failing', last_status: 0, failures: 1 }]);
    expect(alertsFor(owner).map((a) => [a.body.error, a.body.status])).toEqual([['timeout', 0]]);
  });

  test('a host that refuses HEAD is probed with a one-byte ranged GET', async () => {
    const owner = await makeOwner();
    const { path } = await publishedApp(owner, 'no-head');
    const res = await check(owner);
    expect(res.body).toMatchObject({ data: { apps: [{ health: 'ok', last_status: 206 }] } });
    const requests = downloads.requests.filter((r) => r.path === path);
    expect(requests.map((r) => [r.method, r.headers.range])).toEqual([
      ['HEAD', undefined],
      ['GET', 'bytes=0-0'],
    ]);
  });

  test('webhook failures are retried a bounded number of times', async () => {
    const flaky = await startLocalServer();
    try {
      let calls = 0;
      flaky.handle((_req, res) => res.writeHead(++calls < 3 ? 503 : 200).end());
      const alert: AlertBody = { event: 'link_failing', source_id: 's', app_id: 1, name: 'n', version: '1', url: 'https://x.example/a.ipa', status: 500, error: 'http_status', failures: 2, checked_at: 1 };
      const options = { attempts: 3, attemptTimeoutMs: 1_000, backoffMs: [10] };
      expect(await deliverAlert(`${flaky.url}/hook`, undefined, alert, options)).toBe(true);
      expect(flaky.requests).toHaveLength(3);
      flaky.handle((_req, res) => res.writeHead(500).end());
      expect(await deliverAlert(`${flaky.url}/hook`, undefined, alert, options)).toBe(false);
      expect(flaky.requests).toHaveLength(6);
      // A receiver that never answers costs one attempt timeout per attempt, no more.
      flaky.handle(() => undefined);
      const started = Date.now();
      expect(await deliverAlert(`${flaky.url}/hook`, undefined, alert, { attempts: 2, attemptTimeoutMs: 200, backoffMs: [10] })).toBe(false);
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await flaky.close();
    }
  });
});

describe('schedule', () => {
  test('an enabled source is due at once, checked by the scheduled run, then due one interval later', async () => {
    const owner = await makeOwner();
    await publishedApp(owner);
    await alertsOn(owner, { interval_minutes: 15 });
    const due = (await getSource(owner.source.source_id)) as unknown as { health_shard: string; health_due_at: number };
    expect(due.health_shard).toMatch(/^s\d+$/);
    const now = nowSeconds();
    expect(due.health_due_at).toBeLessThanOrEqual(now);

    const report = await runLinkHealthChecker(now, quick);
    expect(report.sources).toBeGreaterThanOrEqual(1);
    expect(((await getSource(owner.source.source_id)) as unknown as { health_due_at: number }).health_due_at).toBe(now + 15 * 60);
    expect((await health(owner)).body.data).toMatchObject({ apps: [{ health: 'ok' }] });

    // Not due again before its interval: a second run does not probe it.
    const probes = downloads.requests.length;
    await runLinkHealthChecker(now + 60, quick);
    expect(downloads.requests.slice(probes).filter((r) => r.path.startsWith('/files/'))).toEqual([]);

    // Turning alerting off takes the source out of the schedule.
    await setAlert(owner, { enabled: false });
    expect(await getSource(owner.source.source_id)).not.toHaveProperty('health_due_at');
  });

  test('a run stops within its budget and leaves the unprobed work due', async () => {
    const owner = await makeOwner();
    for (let i = 0; i < 10; i++) await publishedApp(owner, 'hang');
    await alertsOn(owner);
    const now = nowSeconds() + 1;
    const started = Date.now();
    // One probe at a time, 300 ms each, none starting after 1.7 s: at most six of the ten fit.
    const report = await runLinkHealthChecker(now, { budgetMs: 2_000, appConcurrency: 1, probe: { timeoutMs: 300 } });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(report.unfinished).toBeGreaterThanOrEqual(1);
    // Left due at the run's time, so the next run picks it up again.
    expect(((await getSource(owner.source.source_id)) as unknown as { health_due_at: number }).health_due_at).toBe(now);
    const apps = (await health(owner)).body.data!.apps as { health: string }[];
    expect(apps.filter((a) => a.health === 'unknown').length).toBeGreaterThanOrEqual(1);

    // A budget too small for any probe leaves every source as it was.
    const untouched = await runLinkHealthChecker(now, { budgetMs: 100, probe: { timeoutMs: 200 } });
    expect(untouched.checked).toBe(0);
    expect(((await getSource(owner.source.source_id)) as unknown as { health_due_at: number }).health_due_at).toBe(now);
  });
});

describe('owner endpoints', () => {
  test('health lists published apps only, unknown before the first probe', async () => {
    const owner = await makeOwner();
    const { app } = await publishedApp(owner);
    await makeDraft(owner.source.source_id, { name: 'Still a draft' });
    const res = await health(owner, { 'X-Lang': 'es' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('30');
    expect(res.body).toMatchObject({ code: 1, msg: 'Éxito' });
    expect(res.body.data).toEqual({
      source_id: owner.source.source_id,
      apps: [{ app_id: app.id, name: app.name, version: app.version, url: app.download_url, health: 'unknown', last_status: 0, last_checked: 0, failures: 0, file_changed: false }],
    });
  });

  test("another owner's source, a missing source and a mismatched source_id are refused", async () => {
    const owner = await makeOwner();
    const other = await makeOwner();
    const foreign = await api.request('GET', `/api/appstore/manage/sources/${owner.source.source_id}/health`, { headers: { ...other.bearer, 'X-Lang': 'en' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 40001, data: { error: 'source_not_found' } });
    const foreignCheck = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/health/check`, { headers: { ...other.bearer, 'X-Lang': 'ar' } });
    expect(foreignCheck.body).toMatchObject({ code: 40001 });
    const missing = await api.request('POST', '/api/appstore/manage/sources/s_missing/health/check', { headers: owner.bearer });
    expect(missing.body).toMatchObject({ code: 40001 });
    const mismatch = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/health/check?source_id=other`, { headers: owner.bearer });
    expect(mismatch.body).toMatchObject({ code: 40002, data: { error: 'invalid_value', fields: ['source_id'] } });
    const unknown = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/health/check`, { headers: owner.bearer, json: { force: 1 } });
    expect(unknown.body).toMatchObject({ code: 40002, data: { error: 'unknown_field', fields: ['force'] } });
    const anonymous = await api.request('GET', `/api/appstore/manage/sources/${owner.source.source_id}/health`);
    expect(anonymous.body).toMatchObject({ code: 10 });
  });

  test('an on-demand check starts no probe that could end after its window; the rest stay for the next call', async () => {
    const owner = await makeOwner();
    for (let i = 0; i < 4; i++) await publishedApp(owner, 'hang');
    const actor = { tenantId: owner.user.tenantId, userId: owner.user.userId };
    const started = Date.now();
    // The window and the probe timeout shrunk (20 s and 10 s in the route) so the test does not wait.
    const result = await checkSourceHealthNow(actor, owner.source.source_id, { deadline: Date.now() + 700, probe: { timeoutMs: 300 }, appConcurrency: 1 });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect(result.checked).toBeLessThanOrEqual(2);
    expect(result.remaining).toBe(4 - result.checked);
    expect(result.apps.filter((a) => a.health === 'unknown')).toHaveLength(result.remaining);
  });

  test('an on-demand check probes at most 25 apps, least recently checked first, and says how many', async () => {
    const owner = await makeOwner();
    for (let i = 0; i < 27; i++) await publishedApp(owner);
    const first = await check(owner);
    expect(first.body.data).toMatchObject({ checked: 25, remaining: 2 });
    const second = await check(owner);
    expect(second.body.data).toMatchObject({ checked: 25, remaining: 2 });
    const apps = (second.body.data!.apps as { health: string }[]);
    expect(apps).toHaveLength(27);
    expect(apps.every((a) => a.health === 'ok')).toBe(true);
  });
});
