/**
 * Work to do once the running test file has ended, after its own `afterAll` hooks: the test environment
 * (`fast-globals-environment.js`) runs what a file registered here at its teardown. For what a file leaves open
 * behind it, such as its DynamoDB clients' keep-alive sockets, which would otherwise stay open, each holding the
 * async context it was made in, until the worker exits.
 */
type Closer = () => void | Promise<void>;

const AT_FILE_END = Symbol.for('appsource.test.at-file-end');

export function atFileEnd(close: Closer): void {
  const closers = (globalThis as Record<symbol, Closer[] | undefined>)[AT_FILE_END];
  // Outside the test environment (a file run by plain Node) the process ends instead.
  closers?.push(close);
}
