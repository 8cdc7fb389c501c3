import { CliError } from '../cli-types';

/** The App Store Connect simulator that `npm start` runs: ASC_SIM_URL, else 127.0.0.1:ASC_SIM_PORT (3001). */
export function simulatorUrl(): string {
  return process.env.ASC_SIM_URL ?? `http://127.0.0.1:${process.env.ASC_SIM_PORT ?? '3001'}`;
}

/** Calls one of the simulator's `/_sim/…` control endpoints. */
export async function simulatorControl<T = unknown>(method: 'POST' | 'GET', path: string, body?: unknown, baseUrl = simulatorUrl()): Promise<T> {
  let response: Response;
  try {
    response = await fetch(new URL(path, baseUrl), {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new CliError(`the App Store Connect simulator at ${baseUrl} is not reachable (is \`npm start\` running?): ${String(error)}`);
  }
  const payload = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok) throw new CliError(`simulator ${path}: ${payload.error ?? `HTTP ${response.status}`}`);
  return payload;
}
