import { startTestApi, type TestApi } from '../support/api';
import { createUser } from '../../shared/domain/users/user-service';
import { createApp, createSource } from '../../shared/domain/sources/source-admin';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

test('publishes a draft', async () => {
  const { user, token } = await createUser({ tenantId: 'default' }, 1);
  const source = await createSource({ userId: user.userId }, 1);
  const app = await createApp({ sourceId: source.source_id, name: 'A', version: '1', downloadUrl: 'https://x.example/a.ipa' }, 1);
  const res = await api.request('POST', `/api/appstore/manage/sources/${source.source_id}/apps/${app.id}/publish`, { headers: { Authorization: `Bearer ${token}`, 'X-Lang': 'en' } });
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ publish_status: 'published' });
});
