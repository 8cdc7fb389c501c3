/**
 * Holds a request's writes until its rate-limit count is in. A route counted alongside its business code
 * (`limitAlongside` in shared/routes.ts) starts the count and its reads at once, which saves a round trip of
 * waiting; what keeps "a refused request changes nothing" true is this gate: the shared document client
 * (client.ts) sends no write of the request (PutItem, UpdateItem, DeleteItem, TransactWriteItems,
 * BatchWriteItem) before the count has come back allowing it. A refusal or a limiter outage is thrown from
 * the write instead, so nothing is written; the chain answers the refusal, whatever the business code made of it.
 *
 * The gate is per request, carried by AsyncLocalStorage through everything the business code awaits (the local
 * runtime serves many requests in one process). Code outside it, such as the counter itself, is never held.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { documentClient } from './client';

const gate = new AsyncLocalStorage<() => Promise<void>>();

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
      if (WRITE_COMMAND.test(context.commandName ?? '')) await untilCounted();
      return next(args);
    },
    // First of its step, so anything else on the client (a test's tap) sees a held write only once it leaves.
    { step: 'initialize', name: 'writeGate', priority: 'high' },
  );
}

/** Runs `work` with every write it makes held until `counted` resolves (and failed with its error if it rejects). */
export function withWriteGate<T>(counted: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  gateWrites();
  return gate.run(counted, work);
}

/**
 * Resolves once the current request may change something: at once outside a gated request. Code with a side
 * effect that is not a DynamoDB write (a call to another service) awaits it first.
 */
export async function untilCounted(): Promise<void> {
  await gate.getStore()?.();
}

