import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One request of a load run, built for the run's `i`-th request. */
export interface LoadRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What the bench sends its load generator: every request of one run, built in advance. */
export interface LoadJob {
  base: string;
  requests: LoadRequest[];
  connections: number;
}

/** What the load generator reports back; `failure` names the first wrong answer (or lost request). */
export interface LoadOutcome {
  answered: number;
  seconds: number;
  /** CPU milliseconds the load generator itself spent on the run. */
  cpuMs: number;
  /** Each answer's latency in ms, as the client saw it. */
  latencies: number[];
  failure?: string;
}

export interface LoadResult {
  perSecond: number;
  /** The load generator's CPU milliseconds per request (its own process, not the server's). */
  clientCpu: number;
  /** Latency percentiles of the run's answers, in ms, as the client saw them. */
  p50: number;
  p99: number;
}

/** The `q`-quantile (0–1) of `values` by nearest rank. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface LoadGenerator {
  /**
   * Sends `total` requests to `base` over `connections` keep-alive connections (each waits for its answer
   * before sending the next). Every answer must be a 200 with the envelope's `code: 1`: a benchmark of the
   * wrong answer measures nothing.
   */
  run(base: string, total: number, build: (i: number) => LoadRequest, connections: number): Promise<LoadResult>;
  close(): Promise<void>;
}

/**
 * Starts the load generator: autocannon in a process of its own (`load-client.ts`), as a real client would
 * be, so the CPU the bench reads for its own process is the server's (handlers, local API, proxy) and none
 * of it the client's. autocannon writes prebuilt request bytes and parses answers with a small parser, so
 * it costs the machine little beside the server it loads.
 */
export function startLoadGenerator(): LoadGenerator {
  const child: ChildProcess = fork(fileURLToPath(new URL('./load-client.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let pending: { resolve: (o: LoadOutcome) => void; reject: (e: Error) => void } | undefined;
  child.on('message', (outcome: LoadOutcome) => {
    const waiting = pending;
    pending = undefined;
    waiting?.resolve(outcome);
  });
  child.on('exit', (code) => {
    const waiting = pending;
    pending = undefined;
    waiting?.reject(new Error(`load generator exited (${code})`));
  });
  return {
    async run(base, total, build, connections) {
      if (pending) throw new Error('load: one run at a time');
      const requests = Array.from({ length: total }, (_, i) => build(i));
      const outcome = await new Promise<LoadOutcome>((resolve, reject) => {
        pending = { resolve, reject };
        child.send({ base, requests, connections } satisfies LoadJob);
      });
      if (outcome.failure) throw new Error(`load: ${outcome.failure}`);
      return { perSecond: outcome.answered / outcome.seconds, clientCpu: outcome.cpuMs / total, p50: percentile(outcome.latencies, 0.5), p99: percentile(outcome.latencies, 0.99) };
    },
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.disconnect();
      }),
  };
}
