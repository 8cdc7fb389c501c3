import type { TestApi } from '../support/api';
import { documentClient } from '../../shared/db/client';

/**
 * What a `*.bench.ts` module exports: `export const benchmarks: Benchmark[]`. The runner gives every file the
 * local API server over its own tables on DynamoDB Local, times each iteration and counts the DynamoDB calls
 * the iteration made (per table and command, with the time spent in them), so a bench file only says what to
 * measure.
 */
export interface Benchmark {
  name: string;
  /** How many timed iterations (the runner's `--iterations N` overrides it). */
  iterations: number;
  /** Rows one iteration handles (bulk imports): the report adds rows per second. */
  rowsPerIteration?: number;
  /**
   * Untimed set-up (users, sources); returns the step to time. The step is called `iterations + 1` times with
   * 0, 1, …, iterations; call 0 warms up and is not counted. A step that throws fails the benchmark: a
   * benchmark of the wrong answer measures nothing.
   */
  prepare(context: BenchContext): Promise<(iteration: number) => Promise<void>>;
}

export interface BenchContext {
  /** The local runtime's API server (same handlers Lambda runs) over this bench file's own tables. */
  api: TestApi;
}

export interface DynamoCall {
  table: string;
  command: string;
  ms: number;
  /** `performance.now()` when the call was sent and when its answer was in. */
  startedAt: number;
  endedAt: number;
}

/**
 * Sequential round trips: the calls grouped into waves, a wave being calls in flight together (a call that
 * starts before every earlier call has ended joins the current wave). Calls made at once count once.
 */
export function roundTrips(calls: readonly DynamoCall[]): number {
  let waves = 0;
  let busyUntil = -Infinity;
  for (const call of [...calls].sort((a, b) => a.startedAt - b.startedAt)) {
    if (call.startedAt >= busyUntil) waves++;
    busyUntil = Math.max(busyUntil, call.endedAt);
  }
  return waves;
}

let recording: DynamoCall[] | undefined;
const instrumented = new WeakSet<object>();

/**
 * Records every DynamoDB call made through the shared document client while a step runs. The client is
 * shared by the handlers (they run in this process), so their calls are seen too.
 */
export function instrumentDynamoDb(): void {
  const client = documentClient();
  if (instrumented.has(client)) return;
  instrumented.add(client);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const started = performance.now();
      try {
        return await next(args);
      } finally {
        const input = args.input as { TableName?: string };
        const endedAt = performance.now();
        recording?.push({ table: input.TableName ?? '(none)', command: (context.commandName ?? 'unknown').replace(/Command$/, ''), ms: endedAt - started, startedAt: started, endedAt });
      }
    },
    { step: 'initialize', name: 'benchCallRecorder' },
  );
}

export interface IterationSample {
  ms: number;
  calls: DynamoCall[];
}

export async function sample(step: () => Promise<void>): Promise<IterationSample> {
  const calls: DynamoCall[] = [];
  recording = calls;
  const started = performance.now();
  try {
    await step();
  } finally {
    recording = undefined;
  }
  return { ms: performance.now() - started, calls };
}

export interface BenchReport {
  file: string;
  name: string;
  iterations: number;
  latencyMs: { mean: number; p50: number; p95: number; p99: number; max: number };
  /** Mean DynamoDB calls per iteration, keyed `<table suffix> <Command>`. */
  dynamoCallsPerIteration: Record<string, number>;
  /** Mean milliseconds per iteration spent in each table's calls. */
  dynamoMsPerIteration: Record<string, number>;
  /** Mean rows per second, for benchmarks that declare `rowsPerIteration`. */
  rowsPerSecond?: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Physical names carry a per-run prefix; the report names tables by their definition's suffix. */
function tableLabel(physical: string, prefix: string): string {
  return physical.startsWith(prefix) ? physical.slice(prefix.length) : physical;
}

export function summarize(file: string, name: string, samples: IterationSample[], tablePrefix: string, rowsPerIteration?: number): BenchReport {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const calls: Record<string, number> = {};
  const ms: Record<string, number> = {};
  for (const s of samples) {
    for (const call of s.calls) {
      const table = tableLabel(call.table, tablePrefix);
      const key = `${table} ${call.command}`;
      calls[key] = (calls[key] ?? 0) + 1;
      ms[table] = (ms[table] ?? 0) + call.ms;
    }
  }
  const perIteration = (record: Record<string, number>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, round(v / samples.length)]));
  return {
    file,
    name,
    iterations: samples.length,
    latencyMs: {
      mean: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted[sorted.length - 1] ?? 0),
    },
    dynamoCallsPerIteration: perIteration(calls),
    dynamoMsPerIteration: perIteration(ms),
    ...(rowsPerIteration ? { rowsPerSecond: Math.round((rowsPerIteration * samples.length * 1000) / Math.max(1, sorted.reduce((a, b) => a + b, 0))) } : {}),
  };
}

export function formatReport(report: BenchReport): string {
  const l = report.latencyMs;
  const lines = [
    `${report.name}  (${report.file}, ${report.iterations} iterations)`,
    `  latency ms   mean ${l.mean}  p50 ${l.p50}  p95 ${l.p95}  p99 ${l.p99}  max ${l.max}`,
    ...(report.rowsPerSecond === undefined ? [] : [`  rows/s       ${report.rowsPerSecond.toLocaleString('en-US')}`]),
    `  DynamoDB calls per iteration: ${Object.values(report.dynamoCallsPerIteration).reduce((a, b) => round(a + b), 0)}`,
    ...Object.entries(report.dynamoCallsPerIteration).map(([k, v]) => `    ${k.padEnd(28)} ${v}`),
    `  DynamoDB ms per iteration, by table:`,
    ...Object.entries(report.dynamoMsPerIteration).map(([k, v]) => `    ${k.padEnd(28)} ${v}`),
  ];
  return lines.join('\n');
}
