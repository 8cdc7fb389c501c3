/**
 * Issue 39, decided: a token is valid only on its own tenant's site. On another tenant's host a valid token is
 * answered exactly like an unknown one — on every token route and method of the route table, in that route's
 * envelope (code 10 on management and device routes, code 0 with `token_invalid` on the add routes) — and an
 * expired one there too (its expiry is nobody's business on another site).
 */
import { startTestApi, type TestApi } from '../support/api';
import { makeOwner, makeTenant, type Owner } from '../support/fixtures';
import { routes } from '../../shared/routes';

let api: TestApi;
let owner: Owner;
let foreignHost: string;
beforeAll(async () => {
  api = await startTestApi();
  owner = await makeOwner({ balance: 1_000_000 });
  foreignHost = (await makeTenant('en')).host;
});
afterAll(() => api.close());

const filled = (path: string) => path.replace(/\{(\w+)\+?\}/g, (_whole, name: string) => (name === 'source_id' ? owner.source.source_id : name === 'udid' ? '00008030-001A2B3C4D5E6F70' : '1'));

const tokenRoutes = routes.filter((route) => route.auth === 'bearer' || route.auth === 'token').flatMap((route) => route.methods.map((method) => [route.function, method, route] as const));

test.each(tokenRoutes)('%s %s: a token of another tenant is answered like an unknown token', async (_name, method, route) => {
  const path = filled(route.path);
  const send = (token: string) =>
    route.auth === 'bearer'
      ? api.request(method, path, { headers: { Authorization: `Bearer ${token}`, Host: foreignHost, 'X-Lang': 'en' } })
      : method === 'GET' || method === 'DELETE'
        ? api.request(method, `${path}?token=${token}`, { headers: { Host: foreignHost, 'X-Lang': 'en' } })
        : api.request(method, path, { headers: { Host: foreignHost, 'X-Lang': 'en' }, form: { token } });
  const unknown = await send('t'.repeat(32));
  const foreign = await send(owner.token);
  const answer = (res: Awaited<ReturnType<typeof send>>) => [res.status, res.body.code, res.body.msg, res.body.data?.error];
  expect(answer(foreign)).toEqual(answer(unknown));
  expect([10, 0]).toContain(foreign.body.code);
  expect(foreign.body.data?.error).toBe('token_invalid');
});
