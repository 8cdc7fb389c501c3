/**
 * A source whose catalogue outgrows one DynamoDB item (400 KB): long descriptions in a script of three bytes a
 * character reach it at a few dozen apps. The hour-long soak found publish answering 500 from then on:
 * inside a transaction DynamoDB reports the oversized item as a cancelled transaction, not as the plain
 * "item size" error the fallback looked for. Publishing and editing must go on, and the feed must list every
 * published app (it reads the apps themselves once the document stops claiming to be complete).
 */
import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner } from '../support/fixtures';
import { feedProblems, NO_PROBLEMS } from '../support/feed-validators';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

/** About 120 KB stored: four such apps pass what one item may hold. */
const LONG = '说'.repeat(40_000);

test('publishing past what one feed item holds still publishes, and the feed lists every app', async () => {
  const owner = await makeOwner();
  const names: string[] = [];
  for (let i = 0; i < 5; i++) {
    const name = `Long ${i}`;
    const draft = await makeDraft(owner.source.source_id, { name, description: LONG });
    const res = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${draft.id}/publish`, { headers: { ...owner.bearer, 'X-Lang': 'en' } });
    expect({ i, status: res.status, code: res.body.code }).toEqual({ i, status: 200, code: 1 });
    names.push(name);
  }
  const feed = await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore`);
  expect(feed.status).toBe(200);
  // Read from the apps themselves now, it is still a feed every client family accepts.
  expect(feedProblems(feed.body)).toEqual(NO_PROBLEMS);
  expect(((feed.body as unknown as { apps: { name: string }[] }).apps.map((a) => a.name)).sort()).toEqual(names.sort());
});

test("an edit of a published app that no longer fits beside the others is made, and the feed shows it", async () => {
  const owner = await makeOwner();
  const headers = { ...owner.bearer, 'X-Lang': 'en' };
  const publish = async (id: number) => (await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${id}/publish`, { headers })).body.code;
  // Three entries of about 130 KB, and a short one: the document is just under 400 KB.
  for (let i = 0; i < 3; i++) expect(await publish((await makeDraft(owner.source.source_id, { name: `Long ${i}`, description: '说'.repeat(43_333) })).id)).toBe(1);
  const short = await makeDraft(owner.source.source_id, { name: 'Short' });
  expect(await publish(short.id)).toBe(1);
  // The longest texts the API takes (4,000 characters each, 12 KB in this script) push it past.
  const text = '长'.repeat(4_000);
  const edit = await api.request('PATCH', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${short.id}`, { headers, json: { description: text, version_description: text } });
  expect({ status: edit.status, code: edit.body.code }).toEqual({ status: 200, code: 1 });
  const feed = await api.request('GET', `/api/rjy/${owner.source.source_id}/appstore`);
  const shown = (feed.body as unknown as { apps: { name: string; localizedDescription: string }[] }).apps.find((a) => a.name === 'Short');
  expect(shown?.localizedDescription).toBe(text);
});
