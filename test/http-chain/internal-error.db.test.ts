import { startTestApi, type TestApi } from '../support/api';
import { makeDraft, makeOwner } from '../support/fixtures';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

test('a failing dependency answers a 500 envelope that names nothing internal', async () => {
  const owner = await makeOwner();
  const draft = await makeDraft(owner.source.source_id);
  process.env.TABLE_SOURCES = 'no-such-table';
  try {
    const res = await api.request('POST', `/api/appstore/manage/sources/${owner.source.source_id}/apps/${draft.id}/publish`, { headers: { ...owner.bearer, 'X-Lang': 'en' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 500, msg: 'Internal error, please try again later', time: expect.any(Number), data: { error: 'internal_error' } });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/no-such-table|ResourceNotFound|at .*\.ts|stack/i);
  } finally {
    delete process.env.TABLE_SOURCES;
  }
});
