/**
 * A counting TCP proxy in front of DynamoDB: every HTTP request that crosses it is counted by its
 * `X-Amz-Target` operation, so a benchmark reads the DynamoDB calls a route made at the wire, whatever code
 * made them. Bytes pass through unchanged in both directions.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface WireCounter {
  endpoint: string;
  /** Requests seen so far, by operation (`GetItem`, `UpdateItem`, …). */
  counts(): Record<string, number>;
  /**
   * Sequential round trips so far: the times a request crossed while no other was awaiting its answer. With
   * one client request at a time, the difference over a request is its DynamoDB round trips in sequence
   * (calls sent together count once).
   */
  waves(): number;
  total(): number;
  close(): Promise<void>;
}

/**
 * Splits a client's byte stream into HTTP/1.1 requests (headers up to the blank line, then Content-Length
 * bytes of body) and reports each request's headers. The SDK never sends chunked request bodies to DynamoDB.
 */
function requestParser(onRequest: (headers: string) => void): (chunk: Buffer) => void {
  let buffered: Buffer = Buffer.alloc(0);
  let bodyLeft = 0;
  return (chunk) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    for (;;) {
      if (bodyLeft > 0) {
        const skip = Math.min(bodyLeft, buffered.length);
        bodyLeft -= skip;
        buffered = buffered.subarray(skip);
        if (bodyLeft > 0) return;
      }
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers = buffered.subarray(0, end).toString('latin1');
      buffered = buffered.subarray(end + 4);
      bodyLeft = Number(/\r\ncontent-length:\s*(\d+)/i.exec(headers)?.[1] ?? 0);
      onRequest(headers);
    }
  };
}

export async function startWireCounter(target: string): Promise<WireCounter> {
  const upstream = new URL(target);
  const counts: Record<string, number> = {};
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let waves = 0;
  const server: Server = createServer((client) => {
    const dynamo = connect(Number(upstream.port), upstream.hostname);
    dynamo.setNoDelay(true);
    sockets.add(client).add(dynamo);
    // Requests on this connection still awaiting the first byte of their answer (the SDK does not pipeline).
    let awaiting = 0;
    const count = requestParser((headers) => {
      const op = /\r\nx-amz-target:\s*DynamoDB_\d+\.(\w+)/i.exec(headers)?.[1] ?? 'other';
      counts[op] = (counts[op] ?? 0) + 1;
      if (inFlight === 0) waves++;
      inFlight++;
      awaiting++;
    });
    client.on('data', (chunk: Buffer) => {
      count(chunk);
      dynamo.write(chunk);
    });
    dynamo.on('data', (chunk: Buffer) => {
      if (awaiting > 0) {
        awaiting--;
        inFlight--;
      }
      client.write(chunk);
    });
    const close = () => {
      inFlight -= awaiting;
      awaiting = 0;
      client.destroy();
      dynamo.destroy();
      sockets.delete(client);
      sockets.delete(dynamo);
    };
    client.on('close', close).on('error', close);
    dynamo.on('close', close).on('error', close);
  });
  server.on('connection', (s) => s.setNoDelay(true));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    waves: () => waves,
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
