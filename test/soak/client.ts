/** The soak's HTTP client: keep-alive, a chosen `Host` (tenants are chosen by it), every call timed and counted. */
import { Agent, request } from 'node:http';

export interface Answer {
  status: number;
  /** Parsed JSON body, or `{ raw }` for anything else. */
  body: Record<string, unknown> & { code?: number; msg?: string; data?: Record<string, unknown> };
  headers: Record<string, string | string[] | undefined>;
  /** The body's bytes as received (a profile, a zip). */
  bytes: Buffer;
}

export interface SendOptions {
  host?: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  /** A raw body (a device's signed answer) and its type. */
  raw?: { bytes: Buffer; type: string };
  /** The loopback address to send from (127.x.y.z): what a separate caller looks like to per-IP limits. */
  from?: string;
  /** A `Cookie` header. */
  cookie?: string;
  /**
   * What counts as success for this request, beyond the status: the outcome to record instead of `ok` when
   * the answer is not what the action needed (a page that did not open a session, a zip missing a file).
   */
  judge?: (answer: Answer) => string | undefined | Promise<string | undefined>;
}

/** One finished request as the report and the 5xx accounting see it. */
export interface Sample {
  route: string;
  outcome: string;
  status: number;
  start: number;
  end: number;
  /** Why no answer came (status 0). */
  detail?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

class StaleSocket extends Error {
  constructor(readonly reset: Error) {
    super(reset.message, { cause: reset });
  }
}

export class SoakClient {
  readonly samples: Sample[] = [];
  inFlight = new Map<string, number>();

  constructor(public baseUrl: string) {}

  /**
   * Sends one request labelled `route` (the route table's `METHOD path`); `outcome` names what came back.
   * A network failure (the API process killed, a reset) is an answer with status 0.
   */
  async send(route: string, method: string, path: string, options: SendOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'X-Lang': 'en', ...options.headers };
    if (options.host) headers.Host = options.host;
    if (options.cookie) headers.Cookie = options.cookie;
    let body: string | Buffer | undefined;
    if (options.raw) {
      body = options.raw.bytes;
      headers['Content-Type'] = options.raw.type;
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] = 'application/json';
    } else if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
    const start = Date.now();
    this.inFlight.set(route, (this.inFlight.get(route) ?? 0) + 1);
    let answer: Answer;
    // A request sent on a kept-alive socket the server closed for idleness at the same moment (Node's server
    // closes idle sockets after 5 s) fails with a reset before the server read it: sent again once, as Node's
    // documentation advises (`request.reusedSocket`). Not a product answer; API Gateway has no such race.
    const attempt = () =>
      new Promise<Answer>((resolve, reject) => {
        const req = request(`${this.baseUrl}${path}`, { method, headers, agent, timeout: 60_000, ...(options.from ? { localAddress: options.from } : {}) }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const text = bytes.toString('utf8');
            let parsed: Answer['body'];
            try {
              parsed = JSON.parse(text) as Answer['body'];
            } catch {
              parsed = { raw: text };
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers, bytes });
          });
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', (error: NodeJS.ErrnoException) => reject(req.reusedSocket && error.code === 'ECONNRESET' ? new StaleSocket(error) : error));
        if (body !== undefined) req.write(body);
        req.end();
      });
    try {
      answer = await attempt().catch((error: unknown) => {
        if (error instanceof StaleSocket) return attempt();
        throw error;
      });
    } catch (error) {
      answer = { status: 0, body: { raw: error instanceof Error ? error.message : String(error) }, headers: {}, bytes: Buffer.alloc(0) };
      // A client that got no answer waits a moment before its next call (no hammering of a restarting API).
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      this.inFlight.set(route, (this.inFlight.get(route) ?? 1) - 1);
    }
    let outcome = outcomeOf(answer);
    if (outcome === 'ok' && options.judge) outcome = (await options.judge(answer)) ?? 'ok';
    this.samples.push({ route, outcome, status: answer.status, start, end: Date.now(), ...(answer.status === 0 ? { detail: String(answer.body.raw) } : {}) });
    return answer;
  }

  inFlightOf(prefix: string): number {
    let n = 0;
    for (const [route, count] of this.inFlight) if (route.includes(prefix)) n += count;
    return n;
  }
}

/** `ok`, `refused:<data.error>`, `http <status>`, or `network` (no answer at all). */
export function outcomeOf(answer: Answer): string {
  if (answer.status === 0) return 'network';
  const error = answer.body.data?.error ?? answer.headers['x-error'];
  if (answer.status >= 500) return `${answer.status}${typeof error === 'string' ? ` ${error}` : ''}`;
  if (typeof error === 'string') return `refused:${error}`;
  // A page or a raw answer names its refusal in X-Error.
  const xError = answer.headers['x-error'];
  if (answer.status >= 400 && typeof xError === 'string') return `http ${answer.status} ${xError}`;
  if (answer.body.code === 1 || (answer.body.code === undefined && answer.status < 400)) return 'ok';
  return `http ${answer.status} code ${String(answer.body.code)}`;
}
