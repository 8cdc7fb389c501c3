import { isPublicAddress } from '../../shared/fetch/address-policy';
import { FetchRefusedError, safeFetch, type SafeFetchOptions } from '../../shared/fetch/safe-fetch';
import { startLocalServer, type LocalServer } from '../support/local-server';

/** A documentation-free, really public address: names resolve to it so the address rule lets them pass. */
const PUBLIC_V4 = '93.184.216.34';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.handle((_req, res) => res.end('ok'));
});

async function refusal(url: string, options: Partial<SafeFetchOptions> = {}): Promise<FetchRefusedError> {
  try {
    await safeFetch(url, { timeoutMs: 2_000, ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(FetchRefusedError);
    return error as FetchRefusedError;
  }
  throw new Error(`${url} was fetched`);
}

/** The rule on, the name resolving to `addresses`. */
const ruleOn = (addresses: string[]): Partial<SafeFetchOptions> => ({ allowPrivate: false, resolve: async () => addresses });

describe('address rule (private addresses not allowed)', () => {
  const refused: [string, string][] = [
    ['loopback', '127.0.0.1'],
    ['loopback, elsewhere in 127/8', '127.45.6.7'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.31.255.1'],
    ['private 192.168/16', '192.168.1.1'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['link-local', '169.254.10.10'],
    ['cloud metadata', '169.254.169.254'],
    ['this network 0/8', '0.0.0.0'],
    ['multicast', '224.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['reserved 240/4', '240.0.0.1'],
    ['documentation', '192.0.2.10'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 unique-local', 'fd12:3456::1'],
    ['IPv6 unique-local fc00::/7', 'fc00::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['NAT64 of loopback', '64:ff9b::7f00:1'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['IPv6 documentation', '2001:db8::1'],
  ];

  test.each(refused)('%s (%s) is refused after resolution, and nothing is sent', async (_name, address) => {
    const error = await refusal(`http://files.example.com:${server.port}/app.ipa`, ruleOn([address]));
    expect(error.reason).toBe('address');
    expect(server.requests).toHaveLength(0);
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each([
    ['http://127.0.0.1:PORT/'],
    ['http://[::1]:PORT/'],
    ['http://[::ffff:7f00:1]:PORT/'],
    ['http://2130706433:PORT/'],
    ['http://0x7f.1:PORT/'],
    ['http://localhost.:PORT/'],
    ['http://169.254.169.254/latest/meta-data/'],
  ])('an address written into the URL (%s) is checked too', async (template) => {
    const url = template.replace('PORT', String(server.port));
    // The resolver answers loopback for names, as the system one would for localhost.
    const error = await refusal(url, ruleOn(['127.0.0.1']));
    expect(error.reason).toBe('address');
    expect(server.requests).toHaveLength(0);
  });

  test('a name with one public and one private address is refused', async () => {
    expect((await refusal(`http://mixed.example.com:${server.port}/`, ruleOn([PUBLIC_V4, '127.0.0.1']))).reason).toBe('address');
  });

  test('public addresses pass the rule', () => {
    for (const address of [PUBLIC_V4, '1.1.1.1', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34']) expect(isPublicAddress(address)).toBe(true);
    for (const notAnAddress of ['', 'example.com', '999.1.1.1']) expect(isPublicAddress(notAnAddress)).toBe(false);
  });

  test('a redirect from a public-looking name to a name that resolves to 127.0.0.1 is refused before it is followed', async () => {
    server.handle((req, res) => {
      if (req.path === '/start') res.writeHead(302, { Location: `http://internal.example.com:${server.port}/secret` }).end();
      else res.end('secret');
    });
    const resolved: string[] = [];
    const error = await refusal(`http://cdn.example.com:${server.port}/start`, {
      allowPrivate: false,
      resolve: async (host) => {
        resolved.push(host);
        return host === 'cdn.example.com' ? [PUBLIC_V4] : ['127.0.0.1'];
      },
      // The first hop's public address is checked; its bytes still go to the loopback test server.
      connectAddress: (address) => (address === PUBLIC_V4 ? '127.0.0.1' : address),
    });
    expect(error.reason).toBe('address');
    expect(resolved).toEqual(['cdn.example.com', 'internal.example.com']);
    expect(server.requests.map((r) => r.path)).toEqual(['/start']);
  });

  test('each hop resolves its name once and connects to that answer (no second lookup to rebind)', async () => {
    let calls = 0;
    const result = await safeFetch(`http://cdn.example.com:${server.port}/file`, {
      timeoutMs: 2_000,
      allowPrivate: false,
      resolve: async () => {
        calls++;
        // A rebinding DNS server would answer loopback the second time.
        return calls === 1 ? [PUBLIC_V4] : ['127.0.0.1'];
      },
      connectAddress: () => '127.0.0.1',
    });
    expect(result.status).toBe(200);
    expect(calls).toBe(1);
  });

  test('FETCH_ALLOW_PRIVATE=1 lifts the address rule; anything else keeps it', async () => {
    const saved = process.env.FETCH_ALLOW_PRIVATE;
    try {
      process.env.FETCH_ALLOW_PRIVATE = '1';
      expect((await safeFetch(`${server.url}/x`, { timeoutMs: 2_000 })).status).toBe(200);
      process.env.FETCH_ALLOW_PRIVATE = 'true';
      expect((await refusal(`${server.url}/x`)).reason).toBe('address');
      delete process.env.FETCH_ALLOW_PRIVATE;
      expect((await refusal(`${server.url}/x`)).reason).toBe('address');
    } finally {
      if (saved === undefined) delete process.env.FETCH_ALLOW_PRIVATE;
      else process.env.FETCH_ALLOW_PRIVATE = saved;
    }
  });
});

describe('schemes, redirects, timeouts and failures', () => {
  const open: Partial<SafeFetchOptions> = { allowPrivate: true };

  test.each(['ftp://files.example.com/a', 'file:///etc/passwd', 'gopher://x.example/', 'javascript:alert(1)', 'not a url', '/relative'])('%s is refused by scheme', async (url) => {
    expect((await refusal(url, open)).reason).toBe('scheme');
  });

  test('GET returns status, headers and body; HEAD has no body; POST sends its body', async () => {
    server.handle((req, res) => res.writeHead(201, { 'X-Echo': req.method }).end(`${req.method}:${req.body}`));
    const get = await safeFetch(`${server.url}/g`, { ...open, timeoutMs: 2_000 });
    expect(get).toMatchObject({ status: 201, body: 'GET:', finalUrl: `${server.url}/g` });
    expect(get.headers.get('x-echo')).toBe('GET');
    const head = await safeFetch(`${server.url}/h`, { ...open, method: 'HEAD', timeoutMs: 2_000 });
    expect(head.status).toBe(201);
    expect(head.body).toBeUndefined();
    const post = await safeFetch(`${server.url}/p`, { ...open, method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' }, timeoutMs: 2_000 });
    expect(post.body).toBe('POST:{"a":1}');
  });

  test('follows up to three redirects (relative ones too) and refuses a fourth', async () => {
    server.handle((req, res) => {
      const n = Number(req.path.slice(1));
      if (n > 0) res.writeHead(302, { Location: `/${n - 1}` }).end();
      else res.end('arrived');
    });
    const three = await safeFetch(`${server.url}/3`, { ...open, timeoutMs: 2_000 });
    expect(three).toMatchObject({ status: 200, body: 'arrived', finalUrl: `${server.url}/0` });
    expect((await refusal(`${server.url}/4`, open)).reason).toBe('redirects');
    expect((await refusal(`${server.url}/1`, { ...open, maxRedirects: 0 })).reason).toBe('redirects');
  });

  test('the timeout covers a host that never answers', async () => {
    server.handle(() => undefined);
    const started = Date.now();
    expect((await refusal(`${server.url}/hang`, { ...open, timeoutMs: 200 })).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('the timeout covers a slow resolver and a body that never ends', async () => {
    const slowDns = await refusal('http://slow.example.com/', { ...open, timeoutMs: 200, resolve: () => new Promise(() => undefined) });
    expect(slowDns.reason).toBe('timeout');
    server.handle((_req, res) => res.writeHead(200).write('partial'));
    expect((await refusal(`${server.url}/trickle`, { ...open, timeoutMs: 200 })).reason).toBe('timeout');
  });

  test('a closed port is refused, an unresolvable name is a dns failure, plain HTTP spoken to https is tls', async () => {
    const closed = await startLocalServer();
    const closedUrl = closed.url;
    await closed.close();
    expect((await refusal(`${closedUrl}/x`, open)).reason).toBe('refused');
    expect((await refusal('http://nowhere.example.com/', { ...open, resolve: async () => Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })) })).reason).toBe('dns');
    expect((await refusal('http://empty.example.com/', { ...open, resolve: async () => [] })).reason).toBe('dns');
    expect((await refusal(`https://127.0.0.1:${server.port}/`, open)).reason).toBe('tls');
  });

  test('a host that ignores Range cannot make us read a large body', async () => {
    server.handle((_req, res) => res.end(Buffer.alloc(4 * 1024 * 1024, 'a')));
    const result = await safeFetch(`${server.url}/big`, { ...open, timeoutMs: 5_000, maxBodyBytes: 1024 });
    expect(result.body?.length).toBe(1024);
  });
});
