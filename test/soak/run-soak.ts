/**
 * One soak: start the product, drive the mix at a steady concurrency for the given time while the fault
 * schedule fires, stop, let the background jobs drain, then reconcile: the table of requests and latencies,
 * every 5xx matched to a fault, and the invariants.
 */
import { nowSeconds } from '../../shared/clock';
import { FIRST_RETRY_SECONDS } from '../../shared/domain/events/dispatcher';
import { runReservationWorker } from '../../shared/domain/reservations/reservation-worker';
import { SoakClient, type Sample } from './client';
import { faultSchedule, LATE_APPLE_ANSWER_MS, type FaultWindow } from './faults';
import { startHarness } from './harness';
import { invariants, scanAll, STALE_HOLD_LIMIT_SECONDS, takeSnapshot, type InvariantContext } from './invariants';
import { CUSTOMER_STEPS, customerState } from './customers';
import { actions, everyRouteLabel, pick, setWebhook, type SoakAction, type SoakState } from './mix';

export interface SoakOptions {
  minutes: number;
  concurrency: number;
  usersPerTenant: number;
  /**
   * At most this many requests a second over the run (unset: as many as the concurrency gets answered). The
   * run on every `npm test` shares two cores with the other test files: paced, it proves the same routes,
   * faults and invariants with a fraction of the machine, and the long runs go as fast as they can.
   */
  requestsPerSecond?: number;
  log: (line: string) => void;
}

export interface SoakResult {
  table: string;
  violations: string[];
  /** Routes of the route table the mix never sent. */
  unsent: string[];
  /** Routes of the route table that never once succeeded (sent or not). */
  neverSucceeded: string[];
  /** The rounds of every action run after the traffic until each route had succeeded (0: the mix drew them all). */
  topUpRounds: number;
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
  const lines = ['| route | requests | ok | outcomes | p50 ms | p99 ms | 5xx / lost |', '|---|---:|---:|---|---:|---:|---:|'];
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
    lines.push(`| ${route} | ${list.length} | ${outcomes.get('ok') ?? 0} | ${outcomeText} | ${percentile(latencies, 50)} | ${percentile(latencies, 99)} | ${failures.length} |`);
  }
  return { text: lines.join('\n'), unaccounted, accounted };
}

/** At most this many top-up rounds of every action (each round sends ~50 requests). */
const TOP_UP_ROUNDS = 40;

const routeOf = (s: Sample) => s.route.replace(/ \(.*\)$/, '');

function unsentRoutes(samples: readonly Sample[]): string[] {
  const sent = new Set(samples.map(routeOf));
  return everyRouteLabel().filter((l) => !sent.has(l));
}

/**
 * Routes of the route table without one successful answer (`ok`: the action got what it asked for), and the
 * customer's steps that share a route (opening a session, a redeem, a re-issue) each on its own.
 */
function unsucceededRoutes(samples: readonly Sample[]): string[] {
  const ok = samples.filter((s) => s.outcome === 'ok');
  const succeeded = new Set([...ok.map(routeOf), ...ok.map((s) => s.route)]);
  return [...everyRouteLabel(), ...CUSTOMER_STEPS].filter((l) => !succeeded.has(l));
}

/** Successes per route of the route table (its labelled variants together), for the report. */
function successCounts(samples: readonly Sample[]): string {
  const counts = new Map([...everyRouteLabel(), ...CUSTOMER_STEPS].map((l) => [l, 0]));
  for (const s of samples) {
    if (s.outcome !== 'ok') continue;
    if (counts.has(routeOf(s))) counts.set(routeOf(s), counts.get(routeOf(s))! + 1);
    if (s.route !== routeOf(s) && counts.has(s.route)) counts.set(s.route, counts.get(s.route)! + 1);
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([route, n]) => `${n === 0 ? 'NEVER' : String(n).padStart(5)}  ${route}`).join('\n');
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { log } = options;
  const harness = await startHarness({ usersPerTenant: options.usersPerTenant, udidsPerTenant: 30, codesPerUser: 20, log });
  try {
    const client = new SoakClient(harness.api.url);
    const state: SoakState = {
      world: harness.world,
      devices: new Map(),
      unlockCodes: new Map(),
      links: new Map(),
      apps: new Map(),
      versionCounter: 0,
      customers: customerState(harness.world, harness.deviceCa, harness.api.url, options.minutes),
      receiver: harness.receiver,
    };
    // Every user's webhook points at the receiver from the start (deliveries cover events from then on).
    await Promise.all(harness.world.users.map((user) => setWebhook(client, user, state)));
    const durationMs = options.minutes * 60_000;
    const started = Date.now();
    const deadline = started + durationMs;
    const elapsed = () => Math.round((Date.now() - started) / 1000);
    const windows: FaultWindow[] = [];
    const errors: string[] = [];
    harness.receiver.refuseUntil = deadline - (FIRST_RETRY_SECONDS + 5) * 1000;

    // Paced: a worker ahead of the allowed count waits until the run's clock catches up with it.
    const rate = options.requestsPerSecond;
    const pace = async () => {
      if (!rate) return;
      const ahead = client.samples.length + client.inFlightOf('') - (rate * (Date.now() - started)) / 1000;
      if (ahead > 0) await new Promise((r) => setTimeout(r, Math.min(deadline - Date.now(), (ahead / rate) * 1000)));
    };
    const worker = async () => {
      while (Date.now() < deadline) {
        await pace();
        if (Date.now() >= deadline) break;
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
        log(`fault at ${elapsed()} s: ${fault.name}`);
        try {
          windows.push(...(await fault.fire(harness, client, state)));
          if (fault.revokesTenant) state.customers.revokedAt.set(fault.revokesTenant(harness), Date.now());
        } catch (error) {
          errors.push(`fault ${fault.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
    const progress = setInterval(() => log(`${elapsed()} s: ${client.samples.length} requests`), 30_000);
    await Promise.all([...Array.from({ length: options.concurrency }, worker), faults]);
    clearInterval(progress);
    // A short or slow run may not have drawn a rare branch of the mix: every action again, round by round,
    // until every route has succeeded once (bounded), so "never succeeded" means no action of the mix can
    // succeed on it, not bad luck.
    let topUpRounds = 0;
    const missing = unsucceededRoutes(client.samples);
    if (missing.length) log(`${elapsed()} s: topping up for ${missing.join('; ')}`);
    for (; topUpRounds < TOP_UP_ROUNDS && unsucceededRoutes(client.samples).length > 0; topUpRounds++) {
      state.topUpRound = topUpRounds;
      await Promise.all(
        actions.map((action) =>
          action.run(client, pick(harness.world.users), state).catch((error: unknown) => {
            errors.push(`${action.name}: ${error instanceof Error ? error.message : String(error)}`);
          }),
        ),
      );
    }
    const trafficEnd = nowSeconds();
    log(`traffic stopped after ${client.samples.length} requests and ${topUpRounds} top-up rounds; reconciling`);

    // Requests that met an Apple fault are accounted by it.
    for (const taken of harness.sim.takenFaults()) windows.push({ name: `Apple ${taken.effect} on ${taken.method} ${taken.path}`, start: taken.at, end: taken.at + 3_500 });

    // Apple may still be working on registrations whose answers the adds gave up on (the long slow fault):
    // the sweep below stands for the pass that runs minutes later, so let those finish first — until the
    // latest slow answer a request met is due (with 2 s to spare), not a fixed wait after the traffic.
    const lateAnswersDone = Math.max(0, ...harness.sim.takenFaults().filter((f) => f.effect === 'slow').map((f) => f.at + (f.delayMs ?? LATE_APPLE_ANSWER_MS) + 2_000));
    if (lateAnswersDone > Date.now()) await new Promise((r) => setTimeout(r, lateAnswersDone - Date.now()));
    log(`${elapsed()} s: late Apple answers due; draining`);
    const before = await takeSnapshot();
    const staleCheck = invariants.find((i) => i.name.startsWith('no stale hold'))!;
    const staleViolations = await staleCheck.check({ state, sim: harness.sim, snapshot: before, trafficEnd });

    // Drain: nothing is in flight now, so a hold still held belongs to an add that died with its process. Run
    // the worker's pass as it will run once those holds are old enough, then let pending reviews finish.
    await runReservationWorker(nowSeconds() + STALE_HOLD_LIMIT_SECONDS);
    const drainUntil = Date.now() + 60_000;
    while (Date.now() < drainUntil && (await scanAll('reservations')).some((r) => r.status === 'pending')) await new Promise((r) => setTimeout(r, 2_000));
    log(`${elapsed()} s: reviews done; waiting for owed webhook deliveries`);
    // And the webhook deliveries still owed (a first attempt, or a retry after the receiver's 503), bounded.
    const deliveriesUntil = Date.now() + 60_000;
    while (Date.now() < deliveriesUntil && (await scanAll('events')).some((e) => e.delivery_due_at !== undefined)) await new Promise((r) => setTimeout(r, 2_000));
    await harness.api.stop();
    log(`${elapsed()} s: drained; checking the invariants`);

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
    const neverSucceeded = unsucceededRoutes(client.samples);
    for (const route of neverSucceeded) violations.push(`never succeeded: ${route}`);
    const customers = state.customers;
    const receiver = state.receiver;
    const owed = context.snapshot.events.filter((e) => e.delivery_due_at !== undefined).length;
    const settled = (outcome: string) => context.snapshot.events.filter((e) => e.delivery === outcome).length;
    const pending = context.snapshot.reservations.filter((r) => r.status === 'pending').length;
    const summary = [
      `${client.samples.length} requests in ${options.minutes} min at concurrency ${options.concurrency}${options.requestsPerSecond ? ` (at most ${options.requestsPerSecond} a second)` : ''}, ${harness.world.users.length} users, ${harness.world.tenants.length} tenants`,
      '',
      text,
      '',
      `5xx and lost answers: ${[...accounted].map(([by, n]) => `${n} during ${by}`).join('; ') || 'none'}; unaccounted: ${unaccounted.length}`,
      `Faults: ${windows.filter((w) => !w.name.startsWith('Apple')).map((w) => w.name).join('; ')}; Apple faults met by requests: ${harness.sim.takenFaults().length}`,
      `Devices followed for status: ${state.devices.size}; reservations still pending after the drain: ${pending}; routes never sent: ${unsent.join(', ') || 'none'}`,
      `Customers: ${customers.phones.length} phones, ${customers.sessions.length} sessions opened, ${customers.zips.checked} zips opened (${customers.zips.incomplete.length} incomplete), ${customers.sessions.filter((x) => x.afterEnd).length} sessions tried after their end`,
      `Webhooks: ${receiver.delivered.size} events delivered and verified, ${receiver.duplicates()} repeated deliveries dropped by id, ${receiver.refusedOnPurpose.size} first deliveries answered 503 on purpose (${[...receiver.refusedOnPurpose].filter((id) => receiver.delivered.has(id)).length} delivered again later), ${receiver.pings} pings, ${receiver.unverifiable} unverifiable (secret answer lost), ${owed} still owed after the drain; the outbox: ${settled('delivered')} delivered, ${settled('skipped')} skipped (no webhook then), ${settled('failed')} given up`,
      '',
      'Successes per route of the route table:',
      successCounts(client.samples),
      '',
      'Invariants:',
      ...lines,
    ].join('\n');
    return { table: summary, violations, unsent, neverSucceeded, requests: client.samples.length, unaccounted5xx: unaccounted, topUpRounds };
  } finally {
    await harness.stop();
  }
}
