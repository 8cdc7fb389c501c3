/**
 * Keeps a value for the whole jest worker instead of one test file (every file loads its modules afresh). Only
 * for what is a pure function of its key, such as a compiled JSON Schema validator: a value made in one file is
 * used by the next as it is. Outside the test environment (a file run by plain Node) it lasts for the process.
 */
type Memo = Map<string, unknown>;

const memo: Memo = ((globalThis as Record<symbol, Memo | undefined>)[Symbol.for('appsource.test.worker-memo')] ??= new Map());

export function keptForWorker<T>(key: string, make: () => T): T {
  if (!memo.has(key)) memo.set(key, make());
  return memo.get(key) as T;
}
