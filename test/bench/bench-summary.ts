/**
 * What `npm run bench` keeps of a run besides its printed tables: `test/bench/results.json`, read by
 * `npm run cost` (the calls, capacity units and milliseconds it prices) and by the README's headline figure.
 */
import { fileURLToPath } from 'node:url';
import type { CallsRow } from './route-calls';

const roundTrips = (n: number) => `${n} round trip${n === 1 ? '' : 's'}`;

export const RESULTS_JSON = fileURLToPath(new URL('./results.json', import.meta.url));

export interface BenchSummary {
  /** When the run started (ISO). */
  at: string;
  /** The machine's load average (1, 5, 15 minutes) at the start and at the end of the run. */
  loadAverage: number[][];
  calls: CallsRow[];
  /** Per route under load: p50/p99 ms, and a raw GetItem's around the same round. */
  latency: Array<{ route: string; p50: number; p99: number; rawP50: number; rawP99: number }>;
  /** Per function: minified KiB, its size as a multiple of the bare SDK bundle's, import ms and its ratio (paired). */
  imports: Record<string, { kib: number; sizeRatio: number; importMs: number; importRatio: number }>;
}

/** The run's one-line figure for the README and the page's history. */
export function headline(s: BenchSummary): string {
  const parts: string[] = [];
  const info = s.calls.find((r) => r.fn === 'device-info' && !r.name.includes('cold') && r.requests > 0);
  const coldInfo = s.calls.find((r) => r.fn === 'device-info' && r.name.includes('cold') && r.requests > 0);
  const add = s.calls.find((r) => r.fn === 'add-device' && r.name.includes('new UDID') && r.requests > 0);
  if (info) parts.push(`device info ${info.calls} DynamoDB calls in ${roundTrips(info.trips)}${coldInfo ? ` (${coldInfo.trips} with a token new to the instance)` : ''}`);
  if (add) parts.push(`an instant add ${add.calls} calls in ${roundTrips(add.trips)}`);
  const infoLatency = s.latency.find((l) => l.route.startsWith('GET /api/device/info'));
  if (infoLatency) parts.push(`device info p50 ${(infoLatency.p50 / infoLatency.rawP50).toFixed(1)}× a raw GetItem's under load`);
  const bundles = Object.values(s.imports);
  if (bundles.length) {
    const sorted = bundles.map((i) => i.importRatio).sort((a, b) => a - b);
    parts.push(`bundles at most ${Math.max(...bundles.map((i) => i.sizeRatio)).toFixed(2)}× the bare SDK bundle's size, their import time ${sorted[sorted.length >> 1]!.toFixed(2)}× its own (median of the functions)`);
  }
  return parts.join('; ') || 'no figures';
}
