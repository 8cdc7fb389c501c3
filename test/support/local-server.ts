import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Swap what the server answers from now on. */
  handle(handler: (req: RecordedRequest, res: ServerResponse) => void): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server that records every request (with its raw body) and answers with a replaceable
 * handler: a download host that can be switched to failing, a webhook receiver, a host that never answers.
 */
export async function startLocalServer(handler: (req: RecordedRequest, res: ServerResponse) => void = (_req, res) => res.end('ok')): Promise<LocalServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      current(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    handle: (next) => void (current = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
