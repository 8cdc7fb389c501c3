import { createServer, type Server } from 'node:http';
import { FetchRefusedError, isPrivateAddress, safeFetch } from '../../shared/fetch/safe-fetch';

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    const hops = Number(/^\/hop\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    if (hops > 0) res.writeHead(302, { Location: `/hop/${hops - 1}` });
    else if (req.url === '/hang') return; // never answers: only the caller's time budget ends the request
    else res.writeHead(200, { 'Content-Length': '2' });
    res.end(req.method === 'HEAD' ? undefined : 'ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  }),
);

// Generous budgets where the answer is not about time: a busy machine must not turn them into timeouts.
const BUDGET = 15_000;

const reason = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'none';
  } catch (error) {
    return error instanceof FetchRefusedError ? error.reason : `other: ${String(error)}`;
  }
};

describe('safeFetch', () => {
  test('private, loopback, link-local and metadata addresses are not public', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1']) expect(isPrivateAddress(a)).toBe(true);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) expect(isPrivateAddress(a)).toBe(false);
  });

  test('only http(s); a public-looking name resolving to a private address is refused; redirects are followed', async () => {
    expect(await reason(safeFetch('ftp://example.com/x', { timeoutMs: BUDGET }))).toBe('scheme');
    const resolve = async () => ['127.0.0.1'];
    expect(await reason(safeFetch(`http://downloads.example.com:${port}/`, { timeoutMs: BUDGET, resolve, allowPrivate: false }))).toBe('address');
    expect(await reason(safeFetch(`http://127.0.0.1:${port}/`, { timeoutMs: BUDGET, allowPrivate: false }))).toBe('address');
    const ok = await safeFetch(`http://127.0.0.1:${port}/hop/2`, { method: 'HEAD', timeoutMs: BUDGET, allowPrivate: true });
    expect(ok).toMatchObject({ status: 200, finalUrl: `http://127.0.0.1:${port}/hop/0` });
    expect(ok.headers.get('content-length')).toBe('2');
  });

  test('at most maxRedirects redirects, and the time budget holds', async () => {
    expect(await reason(safeFetch(`http://127.0.0.1:${port}/hop/4`, { timeoutMs: BUDGET, allowPrivate: true }))).toBe('redirects');
    expect(await reason(safeFetch(`http://127.0.0.1:${port}/hop/3`, { timeoutMs: BUDGET, allowPrivate: true }))).toBe('none');
    expect(await reason(safeFetch(`http://127.0.0.1:${port}/hang`, { timeoutMs: 200, allowPrivate: true }))).toBe('timeout');
  });
});
