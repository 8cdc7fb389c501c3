/**
 * Issue 33, low finding: a `Host` no URL can carry answered 500 where a link was built on it. Every route now
 * answers 400 in its own envelope, naming `Host`, and nothing else about the request is looked at.
 */
import { startTestApi, type TestApi } from '../support/api';
import { routes } from '../../shared/routes';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const filled = (path: string) => path.replace('{source_id}', 'snope').replace('{app_id}', '1').replace('{udid}', '00008101-000A1B2C3D4E5F60');

test.each(['1.2.3.4.5', '999.1.1.1', 'x:99999'])('Host %s: 400 on every route, never a 5xx or a success', async (host) => {
  for (const route of routes) {
    const res = await api.request(route.methods[0]!, filled(route.path), { headers: { Host: host, 'X-Lang': 'en' } });
    expect([route.path, res.status]).toEqual([route.path, 400]);
    // A page route (HTML for a person) names the refusal in `X-Error`; the others in the envelope.
    if (route.envelope === 'page') expect(res.headers.get('x-error')).toBe('invalid_value');
    else expect(res.body.data).toMatchObject({ error: 'invalid_value', fields: ['Host'] });
  }
});

test('a good Host still works', async () => {
  const res = await api.request('GET', '/api/rjy/snope/appstore', { headers: { Host: 'localhost:3000' } });
  expect(res.status).toBe(404);
});
