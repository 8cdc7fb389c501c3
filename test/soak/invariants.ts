/**
 * What must hold after any amount of mixed traffic and faults, read from DynamoDB and the simulator once the
 * traffic has stopped and the background jobs have drained. Each invariant returns its violations, one line
 * each; the soak fails on any.
 *
 * Extending: append an `Invariant` to `invariants` (a new capability adds what it promises).
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import type { TableKey } from '../../shared/db/tables';
import { tableName } from '../../shared/db/table-names';
import { getAccount } from '../../shared/db/repositories/account-repository';
import { getUser } from '../../shared/db/repositories/user-repository';
import { ledgerEntries } from '../../shared/db/repositories/ledger-repository';
import { checkLedger } from '../../shared/domain/ledger/reconcile';
import { udidKey } from '../../shared/records/device';
import type { AscSimulator } from '../../infra/asc-simulator/server';
import type { SoakState } from './mix';

/** How old a hold may be while still held: the worker's stale-hold age (300 s) plus a pass and some slack. */
export const STALE_HOLD_LIMIT_SECONDS = 300 + 60;
/** Apple's devices per class per membership year, the slots an account starts with. */
const SLOTS_PER_CLASS = 100;

export type Item = Record<string, unknown>;

export async function scanAll(table: TableKey): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(new ScanCommand({ TableName: tableName(table), ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

export interface Snapshot {
  devices: Item[];
  holds: Item[];
  reservations: Item[];
}

export interface InvariantContext {
  state: SoakState;
  sim: AscSimulator;
  snapshot: Snapshot;
  /** Epoch seconds when the traffic stopped. */
  trafficEnd: number;
}

export interface Invariant {
  name: string;
  check(context: InvariantContext): Promise<string[]>;
}

const amountOf = (charge: unknown) => ((charge as { kind?: string; amount?: number } | undefined)?.kind === 'balance' ? Number((charge as { amount: number }).amount) : 0);

export const invariants: Invariant[] = [
  {
    name: 'balance = credits − completed charges − plans bought, per user',
    async check({ state, snapshot }) {
      const out: string[] = [];
      for (const user of state.world.users) {
        const completed = snapshot.holds.filter((h) => h.user_id === user.userId && h.state === 'completed').reduce((sum, h) => sum + amountOf(h.charge), 0);
        const held = snapshot.holds.filter((h) => h.user_id === user.userId && h.state === 'held').reduce((sum, h) => sum + amountOf(h.charge), 0);
        // A review reservation that failed gave its charge back: the only credit besides the first balance.
        const refunded = snapshot.reservations.filter((r) => r.user_id === user.userId && r.status === 'failed').reduce((sum, r) => sum + amountOf(r.charge), 0);
        // Plans bought (at the start and by the mix): the ledger's subscription entries, each a debit.
        let plans = 0;
        for await (const entry of ledgerEntries(user.userId)) if (entry.kind === 'subscription') plans -= entry.amount;
        const balance = (await getUser(user.userId))!.balance;
        const expected = user.initialBalance + refunded - completed - held - plans;
        if (balance !== expected) out.push(`${user.userId}: balance ${balance}, expected ${expected} (credits ${user.initialBalance}+${refunded}, completed ${completed}, held ${held}, plans ${plans})`);
      }
      return out;
    },
  },
  {
    name: 'every completed hold has a delivered certificate or a reservation',
    async check({ snapshot }) {
      const delivered = new Set(snapshot.devices.filter((d) => d.zt !== 'failed').map((d) => `${String(d.user_id)}|${udidKey(String(d.udid))}`));
      const reserved = new Set(snapshot.reservations.map((r) => `${String(r.user_id)}|${udidKey(String(r.udid))}`));
      return snapshot.holds
        .filter((h) => h.state === 'completed')
        .filter((h) => {
          const key = `${String(h.user_id)}|${udidKey(String(h.udid))}`;
          return !delivered.has(key) && !reserved.has(key);
        })
        .map((h) => `hold ${String(h.hold_id)} (${String(h.user_id)}, ${String(h.udid)}) completed with nothing delivered`);
    },
  },
  {
    name: 'every Apple registration belongs to device rows of its UDID (none orphaned, none double)',
    async check({ state, sim, snapshot }) {
      const out: string[] = [];
      for (const account of state.world.accounts) {
        const registrations = sim.registeredDevices(account.teamId);
        const seen = new Map<string, string>();
        for (const reg of registrations) {
          const udid = udidKey(reg.udid);
          if (seen.has(udid)) out.push(`${account.accountId}: ${udid} registered twice (${seen.get(udid)}, ${reg.id})`);
          seen.set(udid, reg.id);
          const rows = snapshot.devices.filter((d) => d.account_id === account.accountId && d.apple_device_id === reg.id);
          if (rows.length === 0) out.push(`${account.accountId}: registration ${reg.id} (${udid}) has no device row`);
          for (const row of rows) if (udidKey(String(row.udid)) !== udid) out.push(`${account.accountId}: device ${String(row.kid)} (${String(row.udid)}) points at registration ${reg.id} of ${udid}`);
        }
        const ids = new Set(registrations.map((r) => r.id));
        for (const row of snapshot.devices.filter((d) => d.account_id === account.accountId && d.apple_device_id)) {
          if (!ids.has(String(row.apple_device_id))) out.push(`${account.accountId}: device ${String(row.kid)} points at registration ${String(row.apple_device_id)} Apple does not have`);
        }
      }
      return out;
    },
  },
  {
    name: 'free slots per account = 100 − registrations, per class',
    async check({ state, sim }) {
      const out: string[] = [];
      for (const account of state.world.accounts) {
        const stored = (await getAccount(account.accountId))!;
        const registrations = sim.registeredDevices(account.teamId);
        for (const deviceClass of ['iphone', 'ipad', 'mac'] as const) {
          const used = registrations.filter((r) => r.deviceClass.toLowerCase() === deviceClass).length;
          if (stored.free[deviceClass] !== SLOTS_PER_CLASS - used) out.push(`${account.accountId} ${deviceClass}: ${stored.free[deviceClass]} free, ${used} registered`);
        }
      }
      return out;
    },
  },
  {
    name: 'no device toggled into a state nobody asked for',
    async check({ state, snapshot }) {
      const rows = new Map(snapshot.devices.map((d) => [String(d.kid), d]));
      return [...state.devices.values()]
        .filter((d) => d.expected !== 'unknown' && rows.get(d.certificate ?? d.kid)?.enabled !== d.expected)
        .map((d) => `device ${d.certificate ?? d.kid}: enabled ${String(rows.get(d.certificate ?? d.kid)?.enabled)}, its last status answer said ${String(d.expected)}`);
    },
  },
  {
    name: 'no stale hold older than the sweep’s age',
    async check({ snapshot, trafficEnd }) {
      return snapshot.holds
        .filter((h) => h.state === 'held' && Number(h.created_at) < trafficEnd - STALE_HOLD_LIMIT_SECONDS)
        .map((h) => `hold ${String(h.hold_id)} still held ${trafficEnd - Number(h.created_at)} s after it was taken`);
    },
  },
  {
    // The operator's `ledger check`: every user's entries replay to their balance, no hold left in flight.
    name: 'ledger check: every balance is its ledger replayed, no hold in flight',
    async check() {
      const report = await checkLedger();
      return [
        ...report.differences.map((d) => JSON.stringify(d)),
        ...(report.holds_in_flight > 0 ? [`${report.holds_in_flight} hold(s) still in flight`] : []),
        ...(report.users === 0 ? ['no user reconciled'] : []),
      ];
    },
  },
];

export async function takeSnapshot(): Promise<Snapshot> {
  const [devices, holds, reservations] = await Promise.all([scanAll('devices'), scanAll('paymentHolds'), scanAll('reservations')]);
  return { devices, holds, reservations };
}
