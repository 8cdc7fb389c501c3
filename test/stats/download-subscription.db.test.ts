/**
 * The deployed path of the download figures, on DynamoDB Local: the lines the download gate really prints, as
 * CloudWatch Logs hands them to a subscription's target (base64 of a gzipped batch), reach the reservation worker
 * (infra/cdk/download-counts.ts wires the subscription to it), which counts them once however often the batch is
 * delivered — and its schedule still runs its pass, while a batch is counted even when a pass holds the job's lease.
 */
import { gzipSync } from 'node:zlib';
import { jest } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, newUdid, type Owner } from '../support/fixtures';
import { handler } from '../../functions/reservation-worker/handler';
import { withLease } from '../../shared/jobs/lease';
import { leaseKeyOf } from '../../shared/jobs/scheduled-job';
import { utcDay } from '../../shared/db/repositories/app-tally-repository';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const nowS = () => Math.floor(Date.now() / 1000);
const context = { functionName: 'reservation-worker', awsRequestId: 'test', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;

async function publishedApp(owner: Owner, name: string): Promise<number> {
  const draft = await makeDraft(owner.source.source_id, { name });
  expect((await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${draft.id}/publish`, { headers: owner.bearer })).body.code).toBe(1);
  return draft.id;
}

/** Follows an app's signed link through the gate `times` times; returns the lines the gate wrote to stdout. */
async function downloadLines(owner: Owner, appId: number, times: number): Promise<string[]> {
  const feed = (await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore?udid=${newUdid()}`)).body as unknown as { apps: Array<{ downloadURL: string }> };
  const link = feed.apps.map((a) => new URL(a.downloadURL)).find((u) => u.pathname.endsWith(`/apps/${appId}/download`))!;
  const printed: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (String(chunk).includes('"download"')) printed.push(...String(chunk).split('\n').filter(Boolean));
    else return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    return true;
  });
  try {
    for (let i = 0; i < times; i++) expect((await api.request('GET', `${link.pathname}${link.search}`)).status).toBe(302);
  } finally {
    spy.mockRestore();
  }
  return printed;
}

/** What CloudWatch Logs sends a Lambda subscription target: the batch as JSON, gzipped, base64 (`awslogs.data`). */
function subscriptionEvent(messages: readonly string[]): { awslogs: { data: string } } {
  const at = Date.now();
  const batch = {
    messageType: 'DATA_MESSAGE',
    owner: '123456789012',
    logGroup: '/aws/lambda/AppSource-FunctionLogs',
    logStream: '2026/11/28/AppSource-downloadgateFunction[$LATEST]0123456789abcdef',
    subscriptionFilters: ['AppSource-DownloadCountsGateLines'],
    // Event ids are CloudWatch's, unique per event: the first names the batch (its marker).
    logEvents: messages.map((message, i) => ({ id: `${at}${String(i).padStart(4, '0')}${Math.random().toString().slice(2, 12)}`, timestamp: at, message })),
  };
  return { awslogs: { data: gzipSync(Buffer.from(JSON.stringify(batch))).toString('base64') } };
}

const figures = (owner: Owner) => api.request('GET', `/api/user/stats?by=app&source_id=${owner.source.source_id}`, { headers: { ...owner.bearer, 'X-Lang': 'en' } });

test('the gate’s printed lines, delivered as a log subscription batch (twice), are counted once per app', async () => {
  const owner = await makeOwner();
  const [a, b] = [await publishedApp(owner, 'Alpha'), await publishedApp(owner, 'Beta')];
  const lines = [...(await downloadLines(owner, a, 3)), ...(await downloadLines(owner, b, 2))];
  expect(lines).toHaveLength(5);
  expect(JSON.parse(lines[0]!)).toEqual({ download: { tenant: expect.any(String), owner: owner.user.userId, source: owner.source.source_id, app: a, at: expect.any(Number) } });

  const event = subscriptionEvent(lines);
  expect(await handler(event, context)).toEqual({ lines: 5, keys: 2 });
  // At-least-once delivery: the same batch again adds nothing.
  await handler(event, context);
  expect((await figures(owner)).body.data).toMatchObject({ period: utcDay(nowS()), rows: [{ app_id: a, name: 'Alpha', downloads: 3 }, { app_id: b, name: 'Beta', downloads: 2 }] });

  // Another batch (its own ids) counts on top.
  await handler(subscriptionEvent(await downloadLines(owner, b, 1)), context);
  expect((await figures(owner)).body.data).toMatchObject({ rows: [{ app_id: a, downloads: 3 }, { app_id: b, downloads: 3 }] });
});

test('its schedule still runs the reservation pass; a batch is counted even while a pass holds the job’s lease', async () => {
  const scheduled = { version: '0', source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} };
  const pass = (await handler(scheduled, context)) as Record<string, unknown>;
  expect(pass).toEqual(expect.objectContaining({ balances: expect.anything(), subscriptions: expect.anything(), renewals: expect.anything() }));
  expect(pass).not.toHaveProperty('lines');

  const owner = await makeOwner();
  const app = await publishedApp(owner, 'Gamma');
  const lines = await downloadLines(owner, app, 2);
  const held = await withLease(leaseKeyOf('reservation-worker'), 60, async () => ({
    scheduled: await handler(scheduled, context),
    batch: await handler(subscriptionEvent(lines), context),
  }));
  expect(held).toEqual({ ran: true, result: { scheduled: { skipped: true }, batch: { lines: 2, keys: 1 } } });
  expect((await figures(owner)).body.data).toMatchObject({ rows: [{ app_id: app, downloads: 2 }] });
});
