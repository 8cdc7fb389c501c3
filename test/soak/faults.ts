/**
 * The faults a soak injects, spread over its run: Apple answering lost, unavailable, forbidden or slowly (the
 * simulator's fault injection), an Apple account revoked by the operator CLI, and the API process killed while
 * adds are in flight and started again. Each fault records when it happened, so every 5xx can be accounted for.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SimulatedFault } from '../../infra/asc-simulator/server';
import type { SoakClient } from './client';
import type { Harness } from './harness';
import { scanAll } from './invariants';
import type { SoakState } from './mix';

export interface FaultWindow {
  name: string;
  start: number;
  end: number;
}

export interface ScheduledFault {
  /** Fraction of the run at which it fires. */
  at: number;
  name: string;
  fire(harness: Harness, client: SoakClient, state: SoakState): Promise<FaultWindow[]>;
  /** The tenant an account revoke hits (its customers then find revoked certificates). */
  revokesTenant?: (harness: Harness) => string;
}

/** The long slow fault: Apple answers a registration after the add stopped waiting (8 s, and a second look 3 s later). */
export const LATE_APPLE_ANSWER_MS = 13_000;

const APPLE_FAULTS: { effect: SimulatedFault['effect']; method: 'GET' | 'POST'; path: string; times: number; delayMs?: number }[] = [
  { effect: 'lose-answer', method: 'POST', path: '/v1/devices', times: 2 },
  { effect: 'unavailable', method: 'POST', path: '/v1/devices', times: 3 },
  { effect: 'slow', method: 'POST', path: '/v1/devices', times: 2, delayMs: LATE_APPLE_ANSWER_MS },
  { effect: 'forbidden', method: 'POST', path: '/v1/profiles', times: 2 },
  { effect: 'slow', method: 'POST', path: '/v1/devices', times: 3 },
  { effect: 'unavailable', method: 'GET', path: '/v1/devices', times: 2 },
  { effect: 'lose-answer', method: 'POST', path: '/v1/profiles', times: 1 },
  { effect: 'slow', method: 'POST', path: '/v1/profiles', times: 2 },
  { effect: 'forbidden', method: 'POST', path: '/v1/devices', times: 2 },
];

function appleFault(at: number, index: number): ScheduledFault {
  const fault = APPLE_FAULTS[index % APPLE_FAULTS.length]!;
  return {
    at,
    name: `Apple ${fault.effect}${fault.delayMs ? ` (${fault.delayMs / 1000} s)` : ''} on ${fault.method} ${fault.path} ×${fault.times}`,
    async fire(harness) {
      for (const account of harness.world.accounts) harness.sim.injectFault({ teamId: account.teamId, ...fault, delayMs: fault.delayMs ?? 3_000 });
      // The window is when requests actually met it: taken from the simulator's log when the 5xx are accounted.
      return [];
    },
  };
}

const revokeAccount: ScheduledFault = {
  at: 0.4,
  name: 'account revoke (operator CLI) of an instant account of the second tenant (the one holding most of its customers\' certificates)',
  revokesTenant: (harness) => harness.world.tenants[1]!.tenantId,
  async fire(harness, _client, state) {
    const tenant = harness.world.tenants[1]!;
    // The instant account holding the most certificates of the tenant's customers' phones: their page then offers
    // a free re-issue, which every run must see succeed (a short run has few certificates by now, maybe on one
    // account only); the first instant account when none holds one yet.
    const phones = new Set(state.customers.phones.filter((p) => p.tenantId === tenant.tenantId).map((p) => p.udid.toUpperCase()));
    const held = new Map<string, number>();
    for (const device of await scanAll('devices')) {
      if (typeof device.udid === 'string' && phones.has(device.udid.toUpperCase())) held.set(String(device.account_id), (held.get(String(device.account_id)) ?? 0) + 1);
    }
    const instant = harness.world.accounts.filter((a) => a.tenantId === tenant.tenantId && a.mode === 'instant');
    const account = [...instant].sort((a, b) => (held.get(b.accountId) ?? 0) - (held.get(a.accountId) ?? 0))[0]!;
    const start = Date.now();
    await promisify(execFile)(join(process.cwd(), 'node_modules/.bin/tsx'), [join(process.cwd(), 'bin/admin.ts'), 'account', 'revoke', '--account', account.accountId], { env: process.env });
    return [{ name: `account revoke ${account.accountId}`, start, end: Date.now() }];
  },
};

/** Kills the API process as soon as adds are in flight (waiting a few seconds for some), then starts it again. */
function restartApi(at: number): ScheduledFault {
  return {
    at,
    name: 'API process killed (SIGKILL) with adds in flight, then started again',
    async fire(harness, client) {
      const waitUntil = Date.now() + 10_000;
      while (client.inFlightOf('adddevice') === 0 && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 20));
      const inFlight = client.inFlightOf('adddevice');
      const { killedAt, readyAt } = await harness.api.restart();
      return [{ name: `API restart (${inFlight} adds in flight)`, start: killedAt, end: readyAt }];
    },
  };
}

/**
 * The schedule for a run: Apple faults throughout (at least five: lost, unavailable, late past the add's wait,
 * forbidden and slow, whatever the length), a revocation, and one restart (two for runs of 5 minutes or more).
 */
export function faultSchedule(minutes: number): ScheduledFault[] {
  const appleCount = Math.max(5, Math.round(minutes * 3));
  const schedule: ScheduledFault[] = Array.from({ length: appleCount }, (_, i) => appleFault((i + 0.5) / appleCount * 0.85, i));
  schedule.push(revokeAccount, restartApi(0.55));
  if (minutes >= 5) schedule.push(restartApi(0.8));
  return schedule.sort((a, b) => a.at - b.at);
}

