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
import { hashToken } from '../../shared/domain/users/tokens';
import { SESSION_SECONDS, sessionDevice } from '../../shared/domain/self-service/proof';
import type { LedgerEntry } from '../../shared/records/ledger-entry';
import type { SoakState } from './mix';
import type { DeliveredEvent } from './webhooks';

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
  registrations: Item[];
  /** The events table (the outbox), and the UDID-capture table (captures, tickets, sessions). */
  events: Item[];
  captureItems: Item[];
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
        // Agents: top-ups given to the user's agents (and any agent's add settled above it), each its ledger entry.
        let agents = 0;
        for await (const entry of ledgerEntries(user.userId)) {
          if (entry.kind === 'subscription') plans -= entry.amount;
          if (entry.kind === 'agent_topup' || entry.kind === 'agent_sale' || entry.kind === 'agent_cost') agents += entry.amount;
        }
        const balance = (await getUser(user.userId))!.balance;
        const expected = user.initialBalance + refunded - completed - held - plans + agents;
        if (balance !== expected) out.push(`${user.userId}: balance ${balance}, expected ${expected} (credits ${user.initialBalance}+${refunded}, completed ${completed}, held ${held}, plans ${plans}, agents ${agents})`);
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
    // Several certificates may point at one registration (users share UDIDs, and one account may host several
    // users' certificates of a UDID); exactly one of them counts its slot: the owner its record names.
    name: 'every Apple registration belongs to exactly one device row of its UDID (its record’s owner); none registered twice; no row points at one Apple lacks',
    async check({ state, sim, snapshot }) {
      const out: string[] = [];
      const rowsByKid = new Map(snapshot.devices.map((d) => [String(d.kid), d]));
      const records = new Map(snapshot.registrations.map((r) => [String(r.registration_id), r]));
      for (const account of state.world.accounts) {
        const registrations = sim.registeredDevices(account.teamId);
        const seen = new Map<string, string>();
        for (const reg of registrations) {
          const udid = udidKey(reg.udid);
          if (seen.has(udid)) out.push(`${account.accountId}: ${udid} registered twice (${seen.get(udid)}, ${reg.id})`);
          seen.set(udid, reg.id);
          const record = records.get(`${account.accountId}#${reg.deviceClass.toLowerCase()}#${reg.udid.toUpperCase()}`);
          const ownerKid = record?.owner_kid === undefined ? undefined : String(record.owner_kid);
          const owner = ownerKid === undefined ? undefined : rowsByKid.get(ownerKid);
          if (!ownerKid) out.push(`${account.accountId}: registration ${reg.id} (${udid}) is owned by no device row${record ? ` (${String(record.slots ?? 0)} slot(s) kept)` : ' (no record)'}`);
          else if (!owner) out.push(`${account.accountId}: registration ${reg.id} (${udid}) is owned by ${ownerKid}, which is no device row`);
          else if (owner.account_id !== account.accountId || owner.apple_device_id !== reg.id || udidKey(String(owner.udid)) !== udid)
            out.push(`${account.accountId}: registration ${reg.id} (${udid}) is owned by ${ownerKid}, a row of ${String(owner.udid)} on ${String(owner.account_id)} pointing at ${String(owner.apple_device_id)}`);
          for (const row of snapshot.devices.filter((d) => d.account_id === account.accountId && d.apple_device_id === reg.id)) {
            if (udidKey(String(row.udid)) !== udid) out.push(`${account.accountId}: device ${String(row.kid)} (${String(row.udid)}) points at registration ${reg.id} of ${udid}`);
          }
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
    // Each delivery passed the receiver's checks (the README's signature scheme, the owner's webhook, its
    // X-Event-Id); each event the service records as delivered reached the receiver (at least once).
    name: 'every webhook delivery is signed with its user’s secret and sent to its owner; every event recorded delivered was received',
    async check({ state, snapshot }) {
      const out = [...state.receiver.rejected];
      for (const item of snapshot.events) {
        if (item.delivery === 'delivered' && !state.receiver.delivered.has(String(item.id))) out.push(`event ${String(item.id)} (${String(item.type)}) is recorded delivered at ${String(item.delivery_settled_at)} and never reached the receiver`);
      }
      return out;
    },
  },
  {
    name: 'every delivered event matches a change in the ledger or the device table',
    async check({ state, snapshot }) {
      const out: string[] = [];
      const rows = new Map(snapshot.devices.map((d) => [String(d.kid), d]));
      const reservations = new Map(snapshot.reservations.map((r) => [String(r.reservation_id), r]));
      const captures = new Set(snapshot.captureItems.filter((i) => String(i.item_key).startsWith('capture#')).map((i) => String(i.capture_id)));
      const ledgers = new Map<string, LedgerEntry[]>();
      const ledgerOf = async (userId: string) => {
        if (!ledgers.has(userId)) {
          const entries: LedgerEntry[] = [];
          for await (const entry of ledgerEntries(userId)) entries.push(entry);
          ledgers.set(userId, entries);
        }
        return ledgers.get(userId)!;
      };
      const amount = (money: unknown) => ((money as { kind?: string; amount?: number } | undefined)?.kind === 'balance' ? Number((money as { amount: number }).amount) : undefined);
      const rowOf = (event: DeliveredEvent): string | undefined => {
        const row = rows.get(String(event.data.kid));
        if (!row) return `no device row ${String(event.data.kid)}`;
        if (row.user_id !== event.user_id || row.tenant_id !== event.tenant_id) return `device row ${String(row.kid)} is ${String(row.user_id)}'s`;
        if (udidKey(String(row.udid)) !== udidKey(String(event.data.udid))) return `device row ${String(row.kid)} is of ${String(row.udid)}, the event says ${String(event.data.udid)}`;
        return undefined;
      };
      for (const { event } of state.receiver.delivered.values()) {
        let wrong: string | undefined;
        switch (event.type) {
          case 'device.added': {
            wrong = rowOf(event);
            const charged = amount(event.data.charge);
            if (!wrong && charged !== undefined && !(await ledgerOf(event.user_id)).some((e) => e.kind === 'charge' && e.amount === -charged && e.ref.udid !== undefined && udidKey(e.ref.udid) === udidKey(String(event.data.udid))))
              wrong = `no ledger charge of ${charged} for ${String(event.data.udid)}`;
            break;
          }
          case 'reservation.issued':
            wrong = rowOf(event);
            break;
          case 'device.revoked':
            wrong = rowOf(event) ?? (rows.get(String(event.data.kid))?.zt === 'revoked' ? undefined : `device row ${String(event.data.kid)} is ${String(rows.get(String(event.data.kid))?.zt)}, not revoked`);
            break;
          case 'device.expiring':
            wrong = rowOf(event);
            break;
          case 'reservation.failed': {
            const reservation = reservations.get(String(event.data.reservation_id));
            const refunded = amount(event.data.refund);
            if (!reservation || reservation.status !== 'failed') wrong = `reservation ${String(event.data.reservation_id)} is ${String(reservation?.status ?? 'missing')}`;
            else if (refunded !== undefined && !(await ledgerOf(event.user_id)).some((e) => e.kind === 'review_refund' && e.amount === refunded)) wrong = `no ledger refund of ${refunded}`;
            break;
          }
          case 'balance.low':
            if (!(await ledgerOf(event.user_id)).some((e) => e.balanceAfter === Number(event.data.balance))) wrong = `no ledger entry left the balance at ${String(event.data.balance)}`;
            break;
          case 'udid.captured':
            if (!captures.has(String(event.data.capture_id))) wrong = `no capture ${String(event.data.capture_id)}`;
            break;
          default:
            // Subscription notices: the soak's plans last 30 days, so none is due; one delivered is unexplained.
            wrong = 'a type the soak makes no change for';
        }
        if (wrong) out.push(`${event.type} ${event.id} (${event.user_id}): ${wrong}`);
      }
      return out;
    },
  },
  {
    // Order is not promised on the wire (README): what must hold is the order of the changes the events
    // report, by their `created`. A certificate is revoked only after it was delivered.
    name: 'per device, delivered events are in the order of its changes (added or issued before revoked)',
    async check({ state }) {
      const out: string[] = [];
      const byKid = new Map<string, DeliveredEvent[]>();
      for (const { event } of state.receiver.delivered.values()) {
        if (typeof event.data.kid === 'string') byKid.set(event.data.kid, [...(byKid.get(event.data.kid) ?? []), event]);
      }
      for (const [kid, events] of byKid) {
        const delivered = events.filter((e) => e.type === 'device.added' || e.type === 'reservation.issued');
        for (const revoked of events.filter((e) => e.type === 'device.revoked')) {
          for (const d of delivered) if (d.created > revoked.created) out.push(`${kid}: ${d.type} at ${d.created} after device.revoked at ${revoked.created}`);
        }
      }
      return out;
    },
  },
  {
    name: 'no customer session outlives its expiry',
    async check({ state, snapshot, trafficEnd }) {
      const out: string[] = [];
      const sessions = snapshot.captureItems.filter((i) => i.item_key === 'session');
      const stored = new Map(sessions.map((i) => [String(i.scope), i]));
      const known = new Set<string>();
      for (const session of state.customers.sessions) {
        const value = session.cookie.slice(session.cookie.indexOf('=') + 1);
        const scope = `sssession#${session.tenantId}#${hashToken(value)}`;
        known.add(scope);
        const item = stored.get(scope);
        if (!item) continue;
        const expiresAt = Number(item.expires_at);
        // Stored for exactly the cookie's life from its open, not a second longer.
        if (expiresAt > Math.ceil(session.openedBy / 1000) + SESSION_SECONDS) out.push(`session of ${session.udid} opened by ${Math.ceil(session.openedBy / 1000)} is stored until ${expiresAt}`);
        // The product's own check, at the stored end: nothing.
        if (await sessionDevice(value, session.tenantId, expiresAt)) out.push(`session of ${session.udid} still proves the device at its stored end ${expiresAt}`);
        if (session.afterEnd && session.afterEnd.status !== 401 && session.afterEnd.status !== 0) out.push(`session of ${session.udid} answered ${session.afterEnd.status} after its end`);
      }
      // Sessions whose opening answer was lost to a fault: none may last beyond a session's length after the traffic.
      for (const item of sessions) {
        if (!known.has(String(item.scope)) && Number(item.expires_at) > trafficEnd + SESSION_SECONDS) out.push(`a session nobody saw opened is stored until ${String(item.expires_at)}`);
      }
      return out;
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
  const [devices, holds, reservations, registrations, events, captureItems] = await Promise.all([
    scanAll('devices'),
    scanAll('paymentHolds'),
    scanAll('reservations'),
    scanAll('registrations'),
    scanAll('events'),
    scanAll('udidCapture'),
  ]);
  return { devices, holds, reservations, registrations, events, captureItems };
}
