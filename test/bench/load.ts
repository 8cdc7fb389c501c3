import autocannon from 'autocannon';

/** One request of a load run, built for the run's `i`-th request. */
export interface LoadRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Sends `total` requests to `base` over `connections` keep-alive connections (each waits for its answer
 * before sending the next) and returns requests per second. The load comes from autocannon: its clients
 * write prebuilt request bytes to a socket and parse the answer with a small HTTP parser, so the load
 * generator costs the machine little beside the server it measures (it runs in the same process: a worker
 * thread of its own measured slower on two cores). Every answer must be a 200 with the envelope's `code: 1`:
 * a benchmark of the wrong answer measures nothing.
 */
export async function load(base: string, total: number, build: (i: number) => LoadRequest, connections: number): Promise<number> {
  let next = 0;
  let answered = 0;
  let failure: string | undefined;
  let finished = 0;
  const started = performance.now();
  const result = await autocannon({
    url: base,
    connections: Math.min(connections, total),
    amount: total,
    timeout: 30,
    requests: [
      {
        setupRequest: (request) => {
          const r = build(next++);
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
  const seconds = ((finished || performance.now()) - started) / 1000;
  if (failure) throw new Error(`load: ${failure}`);
  if (result.errors || result.timeouts || answered !== total) throw new Error(`load: ${result.errors} errors, ${result.timeouts} timeouts, ${answered} of ${total} answered`);
  return answered / seconds;
}
