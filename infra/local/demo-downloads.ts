/**
 * The demo source's downloads under `npm start`: real IPAs (ipa-builder.ts) served from loopback, so its
 * drafts publish (publishing reads the IPA) and the feed's links lead somewhere. A port the system picks.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { buildIpa, defaultInfo } from './ipa-builder';

export interface DemoApp {
  file: string;
  bundleId: string;
  version: string;
  build: string;
}

export interface DemoDownloads {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startDemoDownloads(apps: readonly DemoApp[]): Promise<DemoDownloads> {
  const files = new Map<string, { body: Buffer; etag: string }>();
  for (const app of apps) {
    const body = await buildIpa({
      info: defaultInfo({ CFBundleIdentifier: app.bundleId, CFBundleShortVersionString: app.version, CFBundleVersion: app.build, CFBundleDisplayName: app.file }),
    });
    files.set(`/${app.file}`, { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"` });
  }
  const server: Server = createServer((req, res) => {
    const file = files.get((req.url ?? '').split('?')[0]!);
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const headers = { 'Content-Type': 'application/octet-stream', ETag: file.etag };
    const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
    if (range) {
      const from = Number(range[1]);
      const to = Math.min(Number(range[2]), file.body.length - 1);
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${from}-${to}/${file.body.length}`, 'Content-Length': String(to - from + 1) });
      res.end(req.method === 'HEAD' ? undefined : file.body.subarray(from, to + 1));
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(file.body.length) });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { baseUrl: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
