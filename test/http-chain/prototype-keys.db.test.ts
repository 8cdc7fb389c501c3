/**
 * Every name an object inherits (`Object.getOwnPropertyNames(Object.prototype)`: toString, valueOf,
 * hasOwnProperty, __proto__, constructor, …) sent as a body key, a query key and a header name to every
 * route of the route table. A lookup on a plain object finds these names even when nobody set them, so each
 * one is checked against a neutral unknown name: it must be answered exactly as that name is (a management
 * route refuses it as 40002 `unknown_field`; a route that ignores unknown parameters ignores it), or as the
 * structural check's 40002 `invalid_key` for the names that check refuses. Never a success the neutral name
 * would not get, never a 5xx.
 */
import { startTestApi, type ApiResponse, type TestApi } from '../support/api';
import { makeDraft, makeOwner, type Owner } from '../support/fixtures';
import { routes, type RouteDefinition } from '../../shared/routes';
import { getSource } from '../../shared/db/repositories/source-repository';
import { customerSessionCookie } from '../support/customer-session';
import { keepTenantsCached } from '../support/tenant-cache';

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const NEUTRAL = 'zz_not_a_parameter';
/** Names the structural check refuses on sight, before any schema (invalid_key). */
const STRUCTURAL = new Set(['__proto__', 'constructor']);

let api: TestApi;
// Every request comes to the default tenant by one Host and nothing changes a tenant; the names under test
// never reach the Host lookup (about 2,800 requests: two reads fewer each).
keepTenantsCached();
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

type Place = 'body' | 'query' | 'header';

interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * One owner per route and place, so the per-user limits of one route never answer for another, with what the
 * route's path and auth need: an app for `{app_id}`, a proven device's session for a route of `auth: 'session'`
 * (it reaches its parameter checks only with one).
 */
async function ownerFor(route: RouteDefinition): Promise<{ owner: Owner; appId: number; session: string }> {
  const owner = await makeOwner({ balance: 1_000_000 });
  const appId = route.path.includes('{app_id}') ? (await makeDraft(owner.source.source_id)).id : 0;
  const session = route.auth === 'session' ? await customerSessionCookie('00008101-000A0000000F0F0F') : '';
  return { owner, appId, session };
}

function fill(route: RouteDefinition, owner: Owner, appId: number, udid: string): string {
  return route.path.replace('{source_id}', owner.source.source_id).replace('{app_id}', String(appId)).replace('{udid}', udid).replace('{news_id}', 'n_missing').replace('{action}', 'redeem');
}

/**
 * A request carrying `name` in `place` (a raw JSON member: JSON.stringify cannot write a `__proto__` key).
 * A header test carries the neutral name in the body too, so nothing it reaches can change state.
 */
function call(route: RouteDefinition, method: string, asker: { owner: Owner; appId: number; session: string }, place: Place, name: string): Call {
  const { owner, appId } = asker;
  const udid = '00008101-000A0000000F0F0F';
  const auth: Record<string, string> = route.auth === 'bearer' ? { Authorization: `Bearer ${owner.token}` } : route.auth === 'session' ? { Cookie: asker.session } : {};
  const token: [string, string][] = route.auth === 'token' ? [['token', owner.token]] : [];
  const path = fill(route, owner, appId, udid);
  const headers: Record<string, string> = { 'X-Lang': 'en', ...auth, 'Content-Type': 'application/json' };
  const member = (key: string) => `${JSON.stringify(key)}:"x"`;
  if (place === 'query') {
    const query = new URLSearchParams([...token, [name, 'x']]).toString();
    return { method, path: `${path}?${query}`, headers, body: '{}' };
  }
  const tokenMember = token.map(([k, v]) => member(k).replace('"x"', JSON.stringify(v)));
  if (place === 'body') return { method, path, headers, body: `{${[...tokenMember, member(name)].join(',')}}` };
  return { method, path, headers: { ...headers, [name]: 'x' }, body: `{${[...tokenMember, member(NEUTRAL)].join(',')}}` };
}

const send = (c: Call) => api.request(c.method, c.path, { headers: c.headers, body: c.body });

/** A page route (HTML) names its refusal in `X-Error` and has no envelope code. */
const outcome = (res: ApiResponse) => ({
  status: res.status,
  code: res.body.code,
  error: (res.body.data as { error?: unknown } | undefined)?.error ?? res.headers.get('x-error') ?? undefined,
});

const targets = routes.flatMap((route) => route.methods.map((method) => ({ name: `${method} ${route.path}`, route: route as RouteDefinition, method })));

describe.each(targets)('$name', ({ route, method }) => {
  test.each(['body', 'query', 'header'] as const)('every Object.prototype name as a %s key', async (place) => {
    const first = await ownerFor(route);
    const { owner } = first;
    const before = await getSource(owner.source.source_id);
    // Without the name: a header test's baseline is the request with no extra header.
    const neutral = outcome(await send(call(route, method, first, place, place === 'header' ? 'X-Zz-Not-A-Header' : NEUTRAL)));
    expect(neutral.status).toBeLessThan(500);
    // A route whose per-user limit is below the number of names gets a fresh owner per name (never its 429).
    const tight = route.rateLimit !== null && route.rateLimit <= PROTOTYPE_NAMES.length;
    // The names at once, each in a request of its own: one name's answer never stands for another's.
    const answers = await Promise.all(
      PROTOTYPE_NAMES.map(async (name): Promise<[string, ReturnType<typeof outcome>]> => {
        const asker = tight ? await ownerFor(route) : first;
        return [name, outcome(await send(call(route, method, asker, place, name)))];
      }),
    );
    const expected = PROTOTYPE_NAMES.map((name) => [
      name,
      place !== 'header' && STRUCTURAL.has(name)
        ? { status: 400, code: route.envelope === 'add' ? 0 : route.envelope === 'page' ? undefined : 40002, error: 'invalid_key' }
        : neutral,
    ]);
    expect(answers).toEqual(expected);
    if (route.auth === 'bearer' && place !== 'header') {
      // Every management route refuses a name it does not know.
      expect(neutral).toEqual({ status: 400, code: 40002, error: 'unknown_field' });
    }
    if (route.auth === 'session') {
      // The session lets the request through to the parameter checks: the required parameter (the code to
      // redeem, the certificate to download) is missing, whatever name came instead.
      expect(neutral).toEqual({ status: 400, code: undefined, error: 'invalid_value' });
    }
    expect(await getSource(owner.source.source_id)).toEqual(before);
  });
});

describe('the local API docs', () => {
  test.each(PROTOTYPE_NAMES)('/docs/%s is not a document: 404, not a 5xx', async (name) => {
    const res = await api.request('GET', `/docs/${name}`);
    expect(res.status).toBe(404);
  });
});

