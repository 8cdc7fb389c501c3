import { startTestApi, type TestApi } from '../support/api';
import { routes } from '../../shared/routes';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'app_id' ? '1' : 'snope'));

describe('every route of the route table is served', () => {
  test.each(routes.flatMap((route) => route.methods.map((method) => [method, route.path] as const)))('%s %s answers JSON from its own function', async (method, path) => {
    const res = await api.request(method, concrete(path), { headers: { 'X-Lang': 'en' } });
    // The local gateway's own 404/405/502 answers carry `message`, never the service's envelope `code`.
    expect(res.status).not.toBe(502);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(typeof res.body.code === 'number' || Array.isArray(res.body.apps)).toBe(true);
  });

  test('paths outside the route table answer like API Gateway does', async () => {
    expect((await api.request('GET', '/api/nothing-here')).status).toBe(404);
    expect((await api.request('DELETE', '/api/device/info')).status).toBe(405);
  });
});
