import { request as httpRequest } from 'node:http';
import { startApiServer, type RunningApi } from '../../infra/local/api-server';
import { useIsolatedTables } from './tables';
import { checkAgainstOpenApi } from './openapi';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { code?: number; msg?: string; time?: number; data?: Record<string, unknown>; ip?: string; ysucc?: string };
}

export interface TestApi {
  url: string;
  request(method: string, path: string, options?: { headers?: Record<string, string>; json?: unknown; form?: Record<string, string>; body?: string }): Promise<ApiResponse>;
  close(): Promise<void>;
}

/**
 * The local runtime's API server on a free port over this file's own tables: tests talk HTTP to the same
 * handler modules Lambda runs.
 */
export async function startTestApi(): Promise<TestApi> {
  await useIsolatedTables();
  const api: RunningApi = await startApiServer(0);
  return {
    url: api.url,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      let body: string | undefined = options.body;
      if (options.json !== undefined) {
        headers['Content-Type'] ??= 'application/json';
        body = JSON.stringify(options.json);
      } else if (options.form) {
        headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
        body = new URLSearchParams(options.form).toString();
      }
      // node:http rather than fetch: fetch may not send a caller-chosen Host, and tenants are chosen by Host.
      const res = await send(`${api.url}${path}`, method, headers, body);
      let parsed: ApiResponse['body'];
      try {
        parsed = JSON.parse(res.text) as ApiResponse['body'];
      } catch {
        parsed = { raw: res.text };
      }
      await checkAgainstOpenApi(method, path, res.status, res.headers.get('content-type'), parsed);
      return { status: res.status, headers: res.headers, body: parsed };
    },
    close: () => api.close(),
  };
}

function send(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    // An explicit length: Node's server refuses a chunked body on GET, and API Gateway passes GET bodies on.
    const sized = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
    const req = httpRequest(url, { method, headers: sized }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve({ status: res.statusCode ?? 0, headers: out, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
