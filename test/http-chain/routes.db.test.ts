import { startTestApi, type TestApi } from '../support/api';
import { routes } from '../../shared/routes';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'app_id' ? '1' : 'snope'));

describe('every route of the route table is served', () => {
  test.each(routes.flatMap((route) => route.methods.map((method) => [method, route.path] as const)))('%s %s answers from its own function', async (method, path) => {
    const res = await api.request(method, concrete(path), { headers: { 'X-Lang': 'en' } });
    // The local gateway's own answers are 502 (a crashed handler) or the 404 `not_found` envelope.
    expect(res.status).not.toBe(502);
    if (path.endsWith('.png')) return expect(res.headers.get('content-type')).toBe('image/png');
    // Pages for a person (the install page, the UDID profile and its callback): HTML, a profile, or their
    // refusal page naming its reason in `X-Error` — never the local gateway's own 404.
    if (routes.find((r) => r.path === path)!.envelope === 'page') {
      expect(res.headers.get('x-error')).not.toBe('not_found');
      return expect(res.headers.get('content-type')).toMatch(/text\/html|application\/x-apple-aspen-config/);
    }
    expect((res.body.data as { error?: string } | undefined)?.error).not.toBe('not_found');
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(typeof res.body.code === 'number' || Array.isArray(res.body.apps)).toBe(true);
  });

  test('paths and methods outside the route table answer the 404 envelope the deployed gateway answers', async () => {
    for (const [method, path] of [
      ['GET', '/api/nothing-here'],
      ['DELETE', '/api/device/info'],
    ] as const) {
      const before = Date.now();
      const res = await api.request(method, path);
      expect(res.status).toBe(404);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.body).toMatchObject({ code: 404, msg: 'No such route: check the path and the method', data: { error: 'not_found' } });
      // The gateway's `time` is milliseconds (its templates cannot divide).
      expect(res.body.time).toBeGreaterThanOrEqual(before);
    }
  });
});
