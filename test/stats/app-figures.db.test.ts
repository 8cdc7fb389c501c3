/**
 * Per-app figures (`/api/user/stats?by=app`), on DynamoDB Local: the download gate logs one line per redirect and
 * makes no call to count it (its round trips stay as test/http-chain/round-trips measures them); the aggregator
 * sums a batch of lines per app and day once, however often the batch is delivered (a log subscription delivers
 * at least once); the answer pages, is refused for another owner's source, and has a CSV form.
 */
import { gzipSync } from 'node:zlib';
import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner, newUdid, type Owner } from '../support/fixtures';
import { countDownloads, countLogBatch, startLocalDownloadCounting } from '../../shared/domain/stats/download-counts';
import { utcDay } from '../../shared/db/repositories/app-tally-repository';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const manage = (owner: Owner, rest = '') => `/api/appstore/manage/sources/${owner.source.source_id}${rest}`;
const nowS = () => Math.floor(Date.now() / 1000);

async function publishedApp(owner: Owner, name: string): Promise<number> {
  const draft = await makeDraft(owner.source.source_id, { name });
  expect((await api.request('POST', manage(owner, `/apps/${draft.id}/publish`), { headers: owner.bearer })).body.code).toBe(1);
  return draft.id;
}

/** Follows each app's signed link from a device's feed through the gate `times` times. */
async function download(owner: Owner, appId: number, times: number): Promise<void> {
  const feed = (await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore?udid=${newUdid()}`)).body as unknown as { apps: Array<{ downloadURL: string }> };
  const link = feed.apps.map((a) => new URL(a.downloadURL)).find((u) => u.pathname.endsWith(`/apps/${appId}/download`))!;
  for (let i = 0; i < times; i++) expect((await api.request('GET', `${link.pathname}${link.search}`)).status).toBe(302);
}

const figures = (owner: Owner, query = '') => api.request('GET', `/api/user/stats?by=app&source_id=${owner.source.source_id}${query}`, { headers: { ...owner.bearer, 'X-Lang': 'en' } });

test('downloads per app per day: counted from the gate’s lines once per batch, answered per app with the source’s installs, as CSV', async () => {
  const owner = await makeOwner();
  const [a, b] = [await publishedApp(owner, 'Alpha'), await publishedApp(owner, 'Beta')];
  const local = startLocalDownloadCounting();
  try {
    await download(owner, a, 3);
    await download(owner, b, 1);
    await local.flush(nowS());
  } finally {
    local.stop();
  }
  const res = await figures(owner);
  expect(res.body).toMatchObject({ code: 1, data: { source_id: owner.source.source_id, period: utcDay(nowS()), installs: 0, rows: [{ app_id: a, name: 'Alpha', downloads: 3 }, { app_id: b, name: 'Beta', downloads: 1 }], next_cursor: null } });

  // A log subscription's batch, delivered twice: counted once.
  const batch = { messageType: 'DATA_MESSAGE', logEvents: [{ id: `ev-${Math.random()}`, message: `2026-11-28T00:00:00Z\tINFO\t${JSON.stringify({ download: { tenant: 'default', owner: owner.user.userId, source: owner.source.source_id, app: b, at: nowS() } })}` }, { id: 'x', message: 'START RequestId: abc' }] };
  const event = { awslogs: { data: gzipSync(Buffer.from(JSON.stringify(batch))).toString('base64') } };
  expect(await countLogBatch(event, nowS())).toEqual({ lines: 1, keys: 1 });
  await countLogBatch(event, nowS());
  expect((await figures(owner)).body.data).toMatchObject({ rows: [{ app_id: a, downloads: 3 }, { app_id: b, downloads: 2 }] });

  // A day with nothing: zeros, not an error; another day's lines stay on their day.
  await countDownloads([{ tenant: 'default', owner: owner.user.userId, source: owner.source.source_id, app: a, at: nowS() - 86_400 }], `b-${Math.random()}`, nowS());
  expect((await figures(owner, `&period=${utcDay(nowS() - 86_400)}`)).body.data).toMatchObject({ rows: [{ app_id: a, downloads: 1 }, { app_id: b, downloads: 0 }] });
  expect((await figures(owner, '&period=2020-01-01')).body.data).toMatchObject({ rows: [{ downloads: 0 }, { downloads: 0 }], installs: 0 });

  const csv = await api.request('GET', `/api/user/stats?by=app&source_id=${owner.source.source_id}&format=csv`, { headers: owner.bearer });
  expect(csv.headers.get('content-type')).toContain('text/csv');
  expect(String(csv.body.raw)).toBe(`day,app_id,name,downloads\r\n${utcDay(nowS())},${a},Alpha,3\r\n${utcDay(nowS())},${b},Beta,2\r\n`);
});

test('by=app is refused for a source not the caller’s, without a source, and with a month', async () => {
  const [owner, other] = [await makeOwner(), await makeOwner()];
  expect((await figures(owner).then(() => api.request('GET', `/api/user/stats?by=app&source_id=${other.source.source_id}`, { headers: { ...owner.bearer, 'X-Lang': 'en' } }))).body).toMatchObject({ code: 40001, data: { error: 'source_not_found' } });
  expect((await api.request('GET', '/api/user/stats?by=app', { headers: { ...owner.bearer, 'X-Lang': 'en' } })).body).toMatchObject({ code: 40002, data: { fields: ['source_id'] } });
  expect((await figures(owner, '&period=2026-11')).body).toMatchObject({ code: 40002, data: { fields: ['period'] } });
});
