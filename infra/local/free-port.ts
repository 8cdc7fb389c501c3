import { createServer } from 'node:net';

/** Asks the OS for a free loopback port (used by tests and the local runtime's optional services). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Thrown before anything starts when a port the local runtime needs is taken. */
export class PortInUseError extends Error {}

/**
 * Fails fast with a fix the user can apply when `port` is taken: otherwise a second runtime could, for
 * example, quietly talk to the DynamoDB Local an earlier run left behind.
 */
export function assertPortFree(port: number, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new PortInUseError(`port ${port} is already in use: stop what holds it, or choose another port with ${variable}=…`));
      } else reject(error);
    });
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}
