/** A webhook receiver on a free loopback port: records every delivery; answers what the test tells it to. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  headers: IncomingHttpHeaders;
  raw: string;
  body: { id: string; type: string; created: number; tenant_id: string; user_id: string; data: Record<string, unknown> };
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** The HTTP status the next deliveries get (200 by default). */
  answer(status: number): void;
  ofType(type: string): Delivery[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let status = 200;
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (status >= 200 && status < 300) deliveries.push({ headers: req.headers, raw, body: JSON.parse(raw) as Delivery['body'] });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    answer: (next) => void (status = next),
    ofType: (type) => deliveries.filter((d) => d.body.type === type),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
