/**
 * `migrate feeds`: a stack holding sources from before the feed's one-read storage (no feed copy, or one that
 * does not claim to list every published app) gets a complete copy, and the feed then reads it alone.
 */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { startTestApi, type TestApi } from '../support/api';
import { admin } from '../support/admin-cli';
import { makeDraft, makeOwner, type Owner } from '../support/fixtures';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

async function publishedSource(): Promise<{ owner: Owner; names: string[] }> {
  const owner = await makeOwner();
  const names = ['Alpha', 'Beta'];
  for (const name of names) {
    const app = await makeDraft(owner.source.source_id, { name, downloadUrl: `https://dl.example.com/${name}.ipa` });
    const res = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${app.id}/publish`, { headers: owner.bearer });
    expect(res.body.code).toBe(1);
  }
  return { owner, names };
}

const feedCopy = async (sourceId: string) => (await documentClient().send(new GetCommand({ TableName: tableName('sourceFeeds'), Key: { source_id: sourceId }, ConsistentRead: true }))).Item;
const feedNames = async (sourceId: string) => ((await api.request('GET', `/api/rjy/${sourceId}/appstore`)).body as { apps: Array<{ name: string }> }).apps.map((a) => a.name).sort();

test('a source without a feed copy gets a complete one; the feed serves the same apps before and after; a second run changes nothing', async () => {
  const { owner, names } = await publishedSource();
  await documentClient().send(new DeleteCommand({ TableName: tableName('sourceFeeds'), Key: { source_id: owner.source.source_id } }));
  // Without the copy the feed falls back to reading the apps themselves.
  expect(await feedNames(owner.source.source_id)).toEqual(names);

  const run = await admin('migrate', 'feeds');
  expect(run.code).toBe(0);
  expect(run.json.feeds).toBeGreaterThanOrEqual(1);
  const copy = await feedCopy(owner.source.source_id);
  expect(copy?.complete).toBe(true);
  expect(Object.keys(copy!).filter((k) => /^a\d+$/.test(k))).toHaveLength(2);
  expect(await feedNames(owner.source.source_id)).toEqual(names);

  const again = await admin('migrate', 'feeds');
  expect(again).toMatchObject({ code: 0, json: { feeds: 0 } });
});
