/**
 * One soak: start the product, drive the mix at a steady concurrency for the given time while the fault
 * schedule fires, stop, let the background jobs drain, then reconcile: the table of requests and latencies,
 * every 5xx matched to a fault, and the invariants.
 */
import { nowSeconds } from '../../shared/clock';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { SoakClient, type Sample } from './client';
import { faultSchedule, LATE_APPLE_ANSWER_MS, type FaultWindow } from './faults';
import { startHarness } from './harness';
import { invariants, scanAll, STALE_HOLD_LIMIT_SECONDS, takeSnapshot, type InvariantContext } from './invariants';
import { actions, everyRouteLabel, pick, type SoakAction, type SoakState } from './mix';

export interface SoakOptions {
  minutes: number;
  concurrency: number;
  usersPerTenant: number;
  log: (line: string) => void;
}

export interface SoakResult {
  table: string;
  violations: string[];
  /** Routes of the route table the mix never sent. */
  unsent: string[];
  requests: number;
  unaccounted5xx: Sample[];
}

function weighted(list: SoakAction[]): SoakAction {
  const total = list.reduce((sum, a) => sum + a.weight, 0);
  let r = Math.random() * total;
  for (const action of list) if ((r -= action.weight) < 0) return action;
  return list[list.length - 1]!;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);

/** A 5xx or a lost answer is accounted for when a fault overlapped the request: a restart, a revocation, or an Apple fault a request met meanwhile. */
function accountFor(sample: Sample, windows: FaultWindow[]): string | undefined {
  const hit = windows.find((w) => sample.start <= w.end + 1_000 && sample.end >= w.start);
  return hit?.name;
}

function table(samples: Sample[], windows: FaultWindow[]): { text: string; unaccounted: Sample[]; accounted: Map<string, number> } {
  const byRoute = new Map<string, Sample[]>();
  for (const s of samples) byRoute.set(s.route, [...(byRoute.get(s.route) ?? []), s]);
  const lines = ['| route | requests | outcomes | p50 ms | p99 ms | 5xx / lost |', '|---|---:|---|---:|---:|---:|'];
  const unaccounted: Sample[] = [];
  const accounted = new Map<string, number>();
  for (const [route, list] of [...byRoute].sort(([a], [b]) => a.localeCompare(b))) {
    const outcomes = new Map<string, number>();
    for (const s of list) outcomes.set(s.outcome, (outcomes.get(s.outcome) ?? 0) + 1);
    const latencies = list.map((s) => s.end - s.start).sort((a, b) => a - b);
    const failures = list.filter((s) => s.status === 0 || s.status >= 500);
    for (const f of failures) {
      const by = accountFor(f, windows);
      if (by) accounted.set(by, (accounted.get(by) ?? 0) + 1);
      else unaccounted.push(f);
    }
    const outcomeText = [...outcomes].sort((a, b) => b[1] - a[1]).map(([o, n]) => `${o} ${n}`).join(', ');
    lines.push(`| ${route} | ${list.length} | ${outcomeText} | ${percentile(latencies, 50)} | ${percentile(latencies, 99)} | ${failures.length} |`);
  }
  return { text: lines.join('\n'), unaccounted, accounted };
}

/** At most this many top-up rounds of every action (each round sends ~40 requests). */
const TOP_UP_ROUNDS = 40;

function unsentRoutes(samples: readonly Sample[]): string[] {
  const sent = new Set(samples.map((s) => s.route.replace(/ \(.*\)$/, '')));
  return everyRouteLabel().filter((l) => !sent.has(l));
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { log } = options;
  const harness = await startHarness({ usersPerTenant: options.usersPerTenant, udidsPerTenant: 30, codesPerUser: 20, log });
  try {
    const client = new SoakClient(harness.api.url);
    const state: SoakState = { world: harness.world, devices: new Map(), unlockCodes: new Map(), links: new Map(), apps: new Map(), versionCounter: 0 };
    const durationMs = options.minutes * 60_000;
    const started = Date.now();
    const deadline = started + durationMs;
    const windows: FaultWindow[] = [];
    const errors: string[] = [];

    const worker = async () => {
      while (Date.now() < deadline) {
        const action = weighted(actions);
        try {
          await action.run(client, pick(harness.world.users), state);
        } catch (error) {
          errors.push(`${action.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    };
    const faults = (async () => {
      for (const fault of faultSchedule(options.minutes)) {
        const wait = started + fault.at * durationMs - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        log(`fault at ${Math.round((Date.now() - started) / 1000)} s: ${fault.name}`);
        try {
          windows.push(...(await fault.fire(harness, client)));
        } catch (error) {
          errors.push(`fault ${fault.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
    const progress = setInterval(() => log(`${Math.round((Date.now() - started) / 1000)} s: ${client.samples.length} requests`), 30_000);
    await Promise.all([...Array.from({ length: options.concurrency }, worker), faults]);
    clearInterval(progress);
    // A short or slow run may not have drawn a rare branch of the mix: every action again, round by round,
    // until every route has been sent (bounded), so "never sent" means no action sends it, not bad luck.
    for (let round = 0; round < TOP_UP_ROUNDS && unsentRoutes(client.samples).length > 0; round++) {
      await Promise.all(
        actions.map((action) =>
          action.run(client, pick(harness.world.users), state).catch((error: unknown) => {
            errors.push(`${action.name}: ${error instanceof Error ? error.message : String(error)}`);
          }),
        ),
      );
    }
    const trafficEnd = nowSeconds();
    log(`traffic stopped after ${client.samples.length} requests; reconciling`);

    // Requests that met an Apple fault are accounted by it.
    for (const taken of harness.sim.takenFaults()) windows.push({ name: `Apple ${taken.effect} on ${taken.method} ${taken.path}`, start: taken.at, end: taken.at + 3_500 });

    // Apple may still be working on registrations whose answers the adds gave up on (the long slow fault):
    // the sweep below stands for the pass that runs minutes later, so let those finish first.
    await new Promise((r) => setTimeout(r, LATE_APPLE_ANSWER_MS + 2_000));
    const before = await takeSnapshot();
    const staleCheck = invariants.find((i) => i.name.startsWith('no stale hold'))!;
    const staleViolations = await staleCheck.check({ state, sim: harness.sim, snapshot: before, trafficEnd });

    // Drain: nothing is in flight now, so a hold still held belongs to an add that died with its process. Run
    // the worker's pass as it will run once those holds are old enough, then let pending reviews finish.
    await runReservationWorker(nowSeconds() + STALE_HOLD_LIMIT_SECONDS);
    const drainUntil = Date.now() + 60_000;
    while (Date.now() < drainUntil && (await scanAll('reservations')).some((r) => r.status === 'pending')) await new Promise((r) => setTimeout(r, 2_000));
    await harness.api.stop();

    const context: InvariantContext = { state, sim: harness.sim, snapshot: await takeSnapshot(), trafficEnd };
    const violations: string[] = [...staleViolations.map((v) => `no stale hold older than the sweep’s age: ${v}`)];
    const lines: string[] = [];
    for (const invariant of invariants) {
      const found = invariant === staleCheck ? staleViolations : await invariant.check(context);
      if (invariant !== staleCheck) violations.push(...found.map((v) => `${invariant.name}: ${v}`));
      lines.push(`- ${found.length === 0 ? 'OK  ' : 'FAIL'} ${invariant.name}${found.length ? ` (${found.length})` : ''}`);
    }
    const { text, unaccounted, accounted } = table(client.samples, windows);
    for (const s of unaccounted) violations.push(`unaccounted ${s.outcome} on ${s.route} at ${new Date(s.start).toISOString()} (${s.end - s.start} ms${s.detail ? `: ${s.detail}` : ''})`);
    for (const e of errors) violations.push(`soak error: ${e}`);
    const unsent = unsentRoutes(client.samples);
    const pending = context.snapshot.reservations.filter((r) => r.status === 'pending').length;
    const summary = [
      `${client.samples.length} requests in ${options.minutes} min at concurrency ${options.concurrency}, ${harness.world.users.length} users, ${harness.world.tenants.length} tenants`,
      '',
      text,
      '',
      `5xx and lost answers: ${[...accounted].map(([by, n]) => `${n} during ${by}`).join('; ') || 'none'}; unaccounted: ${unaccounted.length}`,
      `Faults: ${windows.filter((w) => !w.name.startsWith('Apple')).map((w) => w.name).join('; ')}; Apple faults met by requests: ${harness.sim.takenFaults().length}`,
      `Devices followed for status: ${state.devices.size}; reservations still pending after the drain: ${pending}; routes never sent: ${unsent.join(', ') || 'none'}`,
      '',
      'Invariants:',
      ...lines,
    ].join('\n');
    return { table: summary, violations, unsent, requests: client.samples.length, unaccounted5xx: unaccounted };
  } finally {
    await harness.stop();
  }
}
