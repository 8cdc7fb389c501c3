/**
 * Holds a request's writes until its rate-limit count is in. A route counted alongside its business code
 * (`limitAlongside` in shared/routes.ts) starts the count and its reads at once, which saves a round trip of
 * waiting; what keeps "a refused request changes nothing" true is this gate: the shared document client
 * (client.ts) sends no write of the request (PutItem, UpdateItem, DeleteItem, TransactWriteItems,
 * BatchWriteItem) before the count has come back allowing it. A refusal or a limiter outage is thrown from
 * the write instead, so nothing is written; the chain answers the refusal, whatever the business code made of it.
 *
 * A route counted in its transaction (`countInTransaction`) hands the gate a *carrier* instead of a count in
 * flight: the request's first `TransactWriteItems` (shared/db/transactions.ts) carries the counter's own
 * conditional update, so the count and the route's write are one round trip, all or nothing. Any other write
 * before it still waits for a count of its own (the carrier's `counted`).
 *
 * The gate is per request, carried by AsyncLocalStorage through everything the business code awaits (the local
 * runtime serves many requests in one process). Code outside it, such as the counter itself, is never held.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { documentClient } from './client';

/** What a transaction's send reports: written, or the items whose condition failed (none: a conflict). */
export type TransactionSent = { ok: true } | { ok: false; failed: number[]; returned: Array<Record<string, unknown> | undefined>; error: unknown };

/**
 * A count that can ride in the request's first transaction (shared/http/middlewares/transaction-count.ts).
 * `carry` sends the caller's items with the counter's update added, past the gate, and reports on the caller's
 * items only (it throws the refusal when the limit is spent); undefined when the request is counted already, or
 * its count is on its way: the transaction then goes as any write.
 */
export interface CountCarrier {
  carry(items: readonly object[], send: (items: readonly object[]) => Promise<TransactionSent>): Promise<TransactionSent | undefined>;
}

interface Gate {
  counted: () => Promise<void>;
  carrier?: CountCarrier | undefined;
  /** True while a transaction carrying the count is being sent: the gate lets it through. */
  carrying?: true;
}

const gate = new AsyncLocalStorage<Gate>();

/** The commands that change a table (PutItem, UpdateItem, DeleteItem, TransactWriteItems, BatchWriteItem). */
const WRITE_COMMAND = /^(?:Put|Update|Delete|TransactWrite|BatchWrite)Items?Command$/;

/**
 * Clients whose writes go through the gate. The gate joins the shared client the first time a gated request
 * runs on it, so only functions that count alongside carry it (a public page's bundle does not).
 */
const gated = new WeakSet<object>();

function gateWrites(): void {
  const client = documentClient();
  if (gated.has(client)) return;
  gated.add(client);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (WRITE_COMMAND.test(context.commandName ?? '') && !gate.getStore()?.carrying) await untilCounted();
      return next(args);
    },
    // First of its step, so anything else on the client (a test's tap) sees a held write only once it leaves.
    { step: 'initialize', name: 'writeGate', priority: 'high' },
  );
}

/**
 * Runs `work` with every write it makes held until `counted` resolves (and failed with its error if it rejects).
 * With a `carrier`, the first transaction carries the count instead (see above).
 */
export function withWriteGate<T>(counted: () => Promise<void>, work: () => Promise<T>, carrier?: CountCarrier): Promise<T> {
  gateWrites();
  return gate.run({ counted, carrier }, work);
}

/**
 * Resolves once the current request may change something: at once outside a gated request. Code with a side
 * effect that is not a DynamoDB write (a call to another service) awaits it first.
 */
export async function untilCounted(): Promise<void> {
  await gate.getStore()?.counted();
}

/** The current request's count carrier, on a route counted in its transaction. */
export function countCarrier(): CountCarrier | undefined {
  return gate.getStore()?.carrier;
}

/** Sends `send` (a transaction that carries the count) past the gate. */
export function sendCarrying<T>(send: () => Promise<T>): Promise<T> {
  const store = gate.getStore();
  return store ? gate.run({ ...store, carrying: true }, send) : send();
}

/** Runs `work` outside the request's gate: the rate-limit counter's own write is never held by it. */
export function outsideGate<T>(work: () => T): T {
  return gate.exit(work);
}
