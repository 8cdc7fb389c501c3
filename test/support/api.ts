import { startApiServer, type RunningApi } from '../../infra/local/api-server';
import { useIsolatedTables } from './tables';

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
      const res = await fetch(`${api.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await res.text();
      let parsed: ApiResponse['body'];
      try {
        parsed = JSON.parse(text) as ApiResponse['body'];
      } catch {
        parsed = { raw: text };
      }
      return { status: res.status, headers: res.headers, body: parsed };
    },
    close: () => api.close(),
  };
}
