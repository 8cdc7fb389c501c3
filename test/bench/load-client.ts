/**
 * The load generator's own process (forked by `load.ts`): it runs autocannon against the local API and
 * reports back, so the requests' client costs the server process nothing, as it would for real users.
 */
import autocannon from 'autocannon';
import type { LoadJob, LoadOutcome, LoadRequest } from './load';

async function run(job: LoadJob): Promise<LoadOutcome> {
  const total = job.requests.length;
  let next = 0;
  let answered = 0;
  let failure: string | undefined;
  let finished = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  // Every answer's time from the request's first byte out to its answer in (autocannon's own, in fractional ms).
  const latencies: number[] = [];
  const instance = autocannon({
    url: job.base,
    connections: Math.min(job.connections, total),
    amount: total,
    timeout: 30,
    requests: [
      {
        setupRequest: (request) => {
          const r: LoadRequest = job.requests[next++]!;
          const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
          return {
            ...request,
            method: r.method,
            path: r.path,
            headers: { ...r.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(payload === undefined ? {} : { body: payload }),
          };
        },
        onResponse: (status, body) => {
          // autocannon notices the end of a run on its one-second tick: the clock stops at the last answer.
          if (++answered === total) finished = performance.now();
          if (failure) return;
          let code: unknown;
          try {
            code = (JSON.parse(body) as { code?: unknown }).code;
          } catch {
            code = undefined;
          }
          if (status !== 200 || code !== 1) failure = `HTTP ${status} ${body.slice(0, 300)}`;
        },
      },
    ],
  });
  // The promise autocannon answers is also its event emitter (its types know only the promise).
  (instance as unknown as NodeJS.EventEmitter).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  const result = await instance;
  const cpu = process.cpuUsage(cpuBefore);
  if (!failure && (result.errors || result.timeouts || answered !== total)) failure = `${result.errors} errors, ${result.timeouts} timeouts, ${answered} of ${total} answered`;
  return { answered, seconds: ((finished || performance.now()) - started) / 1000, cpuMs: (cpu.user + cpu.system) / 1000, latencies, ...(failure ? { failure } : {}) };
}

process.on('message', (job: LoadJob) => {
  run(job).then(
    (outcome) => process.send!(outcome),
    (err: unknown) => process.send!({ answered: 0, seconds: 0, cpuMs: 0, latencies: [], failure: String(err) } satisfies LoadOutcome),
  );
});
// The bench ended (or died): nothing is left to load.
process.on('disconnect', () => process.exit(0));
