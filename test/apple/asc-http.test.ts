// The transport under a scripted fetch: retries (429, 5xx, network, timeout) and their bounds, no retry on other
// 4xx, the request it sends, the X-Rate-Limit budget, and a fresh token after a 401.
import { generateKeyPairSync } from 'node:crypto';
import { AscTransport, parseRateLimit, type AscTransportOptions } from '../../shared/apple/asc-http';
import { appleFailure as failure } from '../support/asc-fixtures';
import { AscTokenCache, type AscCredentials } from '../../shared/apple/asc-jwt';

const credentials: AscCredentials = {
  baseUrl: 'https://asc.example.test/prefix',
  issuerId: 'issuer-1',
  keyId: 'KEY0000001',
  privateKeyPem: generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
};

type Reply = Response | Error | 'hang';

function json(status: number, body: unknown, rateRemaining?: number): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (rateRemaining !== undefined) headers['x-rate-limit'] = `user-hour-lim:3600;user-hour-rem:${rateRemaining};`;
  return new Response(JSON.stringify(body), { status, headers });
}

const appleError = (status: number, code: string, detail = 'detail') => ({
  errors: [{ id: 'x', status: String(status), code, title: 'title', detail }],
});

/** A fetch that answers from a script (the last reply repeats) and keeps each request. */
function scriptedFetch(...replies: Reply[]) {
  const requests: { url: string; init: RequestInit }[] = [];
  const fetchImpl: typeof fetch = (input, init = {}) => {
    requests.push({ url: String(input), init });
    const reply = replies[Math.min(requests.length, replies.length) - 1];
    if (reply === 'hang') {
      return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    }
    return reply instanceof Error ? Promise.reject(reply) : Promise.resolve(reply!.clone());
  };
  return { fetch: fetchImpl, requests };
}

function transport(fetchImpl: typeof fetch, options: AscTransportOptions = {}) {
  return new AscTransport(credentials, new AscTokenCache(), { fetch: fetchImpl, retryBaseDelayMs: 1, ...options });
}

describe('parseRateLimit', () => {
  test.each([
    ['user-hour-lim:3600;user-hour-rem:3599;', { limit: 3600, remaining: 3599 }],
    ['user-hour-lim:3600; user-hour-rem:0', { limit: 3600, remaining: 0 }],
    ['user-hour-lim:3600;', undefined],
    ['user-hour-lim:3600;user-hour-rem:;', undefined],
    ['garbage', undefined],
    [null, undefined],
  ])('%s', (header, expected) => {
    expect(parseRateLimit(header)).toEqual(expected);
  });
});

test('sends JSON with a bearer token to the account base URL, keeping its path', async () => {
  const script = scriptedFetch(json(201, { data: { id: '1' } }, 3599));
  const http = transport(script.fetch);
  const body = await http.request({
    method: 'POST',
    path: '/v1/devices',
    query: { 'filter[udid]': 'a,b' },
    body: { data: { type: 'devices' } },
  });

  expect(body).toEqual({ data: { id: '1' } });
  const [request] = script.requests;
  expect(request?.url).toBe('https://asc.example.test/prefix/v1/devices?filter%5Budid%5D=a%2Cb');
  expect(request?.init.method).toBe('POST');
  expect(request?.init.headers).toMatchObject({ authorization: expect.stringMatching(/^Bearer ey/), 'content-type': 'application/json' });
  expect(JSON.parse(String(request?.init.body))).toEqual({ data: { type: 'devices' } });
  expect(http.rateLimit).toEqual({ limit: 3600, remaining: 3599 });
});

test('a GET carries no body and no content type', async () => {
  const script = scriptedFetch(json(200, { data: [] }));
  await transport(script.fetch).request({ method: 'GET', path: '/v1/devices' });
  expect(script.requests[0]?.init.body).toBeUndefined();
  expect(script.requests[0]?.init.headers).not.toHaveProperty('content-type');
});

test('5xx answers are retried until one succeeds', async () => {
  const script = scriptedFetch(json(503, appleError(503, 'UNEXPECTED_ERROR'), 10), json(500, {}), json(200, { ok: 1 }, 8));
  const http = transport(script.fetch);
  expect(await http.request({ method: 'GET', path: '/v1/devices' })).toEqual({ ok: 1 });
  expect(script.requests).toHaveLength(3);
  expect(http.rateLimit).toEqual({ limit: 3600, remaining: 8 });
});

test('5xx that persists is unavailable after three attempts', async () => {
  const script = scriptedFetch(new Response('<html>Bad gateway</html>', { status: 502 }));
  const error = await failure(transport(script.fetch).request({ method: 'GET', path: '/v1/devices' }));
  expect(error).toMatchObject({ kind: 'unavailable', status: 502 });
  expect(script.requests).toHaveLength(3);
});

test('429 is retried, then rate_limited', async () => {
  const script = scriptedFetch(json(429, appleError(429, 'RATE_LIMIT_EXCEEDED'), 0));
  const error = await failure(transport(script.fetch).request({ method: 'GET', path: '/v1/devices' }));
  expect(error).toMatchObject({ kind: 'rate_limited', status: 429 });
  expect(script.requests).toHaveLength(3);
});

test('a network error is retried, then unavailable with the cause', async () => {
  const cause = new TypeError('fetch failed');
  const script = scriptedFetch(cause);
  const error = await failure(transport(script.fetch).request({ method: 'GET', path: '/v1/devices' }));
  expect(error).toMatchObject({ kind: 'unavailable', status: undefined, cause });
  expect(script.requests).toHaveLength(3);
});

test('an answer slower than the timeout is abandoned and retried', async () => {
  const script = scriptedFetch('hang', json(200, { ok: 1 }));
  const started = Date.now();
  expect(await transport(script.fetch, { timeoutMs: 50 }).request({ method: 'GET', path: '/v1/devices' })).toEqual({ ok: 1 });
  expect(script.requests).toHaveLength(2);
  expect(Date.now() - started).toBeGreaterThanOrEqual(45);
});

test('timeouts that persist are unavailable', async () => {
  const script = scriptedFetch('hang');
  const error = await failure(transport(script.fetch, { timeoutMs: 20 }).request({ method: 'GET', path: '/v1/devices' }));
  expect(error.kind).toBe('unavailable');
  expect(script.requests).toHaveLength(3);
});

test.each([
  [409, 'ENTITY_ERROR', "A device with number 'X' already exists on this team.", 'device_exists'],
  [403, 'FORBIDDEN_ERROR', 'Your development team has reached the maximum number of registered iPhone devices.', 'device_class_full'],
  [404, 'NOT_FOUND', "There is no resource of type 'devices' with id 'X'", 'not_found'],
  [400, 'PARAMETER_ERROR.INVALID', "'x' is not a valid value", 'unexpected'],
])('a %i (%s) is not retried', async (status, code, detail, kind) => {
  const script = scriptedFetch(json(status, appleError(status, code, detail)));
  const error = await failure(transport(script.fetch).request({ method: 'POST', path: '/v1/devices', body: {} }));
  expect(error.kind).toBe(kind);
  expect(script.requests).toHaveLength(1);
});

test('maxAttempts 1 turns retries off', async () => {
  const script = scriptedFetch(json(503, {}));
  await failure(transport(script.fetch, { maxAttempts: 1 }).request({ method: 'GET', path: '/v1/devices' }));
  expect(script.requests).toHaveLength(1);
});

test('after a 401 the next request signs a new token', async () => {
  const script = scriptedFetch(json(200, {}), json(401, appleError(401, 'NOT_AUTHORIZED')), json(200, {}));
  const http = transport(script.fetch);
  await http.request({ method: 'GET', path: '/v1/devices' });
  expect((await failure(http.request({ method: 'GET', path: '/v1/devices' }))).kind).toBe('unauthorized');
  await http.request({ method: 'GET', path: '/v1/devices' });

  const tokens = script.requests.map((request) => (request.init.headers as Record<string, string>).authorization);
  expect(tokens[1]).toBe(tokens[0]);
  expect(tokens[2]).not.toBe(tokens[1]);
});

test('a success whose body is not JSON is unexpected', async () => {
  const script = scriptedFetch(new Response('<html>', { status: 200 }));
  expect((await failure(transport(script.fetch).request({ method: 'GET', path: '/v1/devices' }))).kind).toBe('unexpected');
});
