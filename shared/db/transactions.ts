/**
 * `TransactWriteItems`, sent and read back in one place: a cancellation is decoded into the items whose
 * condition failed, which is what every caller turns into its answer (balance short, code taken, not a
 * draft …).
 *
 * - `transactWrite(items)` — one transaction.
 * - `transactRows(rows)` — many rows, each a few conditional items, written whole or not at all in as few
 *   transactions as the failed conditions allow.
 */
import { TransactionCanceledException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import type { CountCarrier, TransactionSent } from './write-gate';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

declare const opaque: unique symbol;

/**
 * One write of a transaction as a repository hands it out. Opaque on purpose: the domain composes parts of
 * several repositories into one atomic write (the add records the device, counts the slot and completes the
 * payment together) without seeing or building the DynamoDB item inside.
 */
export interface TransactionPart {
  readonly [opaque]: 'TransactionPart';
}

export function transactionPart(item: TransactItem): TransactionPart {
  return item as unknown as TransactionPart;
}

/**
 * `failed`: the index of each item whose condition failed, ascending. Empty only with `conflicts: 'report'`,
 * when a conflicting write (not a condition) cancelled the transaction.
 */
export type TransactionOutcome =
  | { ok: true }
  | {
      ok: false;
      failed: number[];
      /**
       * By index, the item as a failed condition saw it, for items that asked with
       * `ReturnValuesOnConditionCheckFailure` (raw attribute values: the document client does not translate them).
       */
      returned?: ReadonlyArray<Record<string, AttributeValue> | undefined>;
    };

export const MAX_TRANSACTION_ITEMS = 100;

/**
 * Sends one transaction. A cancellation that no failed condition explains is thrown (the caller can only
 * name a rule that stopped it), unless `conflicts: 'report'` asks for it as an outcome (callers that read
 * the state again and retry).
 *
 * In a request counted in its transaction (`countInTransaction` routes, shared/db/write-gate.ts), the first
 * transaction also carries the rate-limit counter's conditional update: the count and the write are then one
 * round trip, written together or not at all. The caller sees its own items only: a spent limit is thrown (the
 * refusal), and a counter that held another count than expected is sent again with the count it held.
 */
export async function transactWrite(items: ReadonlyArray<TransactItem | TransactionPart>, options: { conflicts?: 'throw' | 'report' } = {}): Promise<TransactionOutcome> {
  const carrier = items.length < MAX_TRANSACTION_ITEMS ? countCarrier?.() : undefined;
  const sent = (carrier && (await carrier.carry(items, send))) || (await send(items));
  if (sent.ok) return sent;
  if (sent.failed.length === 0 && options.conflicts !== 'report') throw sent.error;
  return { ok: false, failed: sent.failed, returned: sent.returned as Array<Record<string, AttributeValue> | undefined> };
}

/**
 * The current request's count carrier, installed by the carried count itself (`carryCountsWith`), so only the
 * functions of routes counted in their transaction carry the lookup (the rest never load the write gate for it).
 */
let countCarrier: (() => CountCarrier | undefined) | undefined;

export function carryCountsWith(source: () => CountCarrier | undefined): void {
  countCarrier = source;
}

async function send(items: readonly object[]): Promise<TransactionSent> {
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: items as TransactItem[] }));
    return { ok: true };
  } catch (err) {
    if (!(err instanceof TransactionCanceledException)) throw err;
    const reasons = err.CancellationReasons ?? [];
    const failed = reasons.flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
    return { ok: false, failed, returned: reasons.map((reason) => reason.Item), error: err };
  }
}

export type OnConditionFailed = { outcome: 'unchanged' } | { outcome: 'error'; reason: string } | { outcome: 'drop' };

export interface RowWrite {
  items: Array<{ item: TransactionPart; onConditionFailed: OnConditionFailed }>;
}

export type RowOutcome = { outcome: 'written' } | { outcome: 'unchanged' } | { outcome: 'error'; reason: string };

const MAX_ROW_ATTEMPTS = 10;

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2_000, 50 * 2 ** attempt)));

/**
 * Outcomes in the order of `rows`; the rows' items together must fit one transaction. When a transaction is
 * cancelled, each item whose condition failed says what that means for its row — already there
 * (`unchanged`), refused (`error`), or not needed (`drop`: the item leaves the row) — and the rest is sent
 * again. Cancellations without a failed condition (a conflicting transaction) are retried with backoff.
 */
export async function transactRows(rows: readonly RowWrite[]): Promise<RowOutcome[]> {
  const items = rows.map((row) => [...row.items]);
  if (items.flat().length > MAX_TRANSACTION_ITEMS) throw new Error(`at most ${MAX_TRANSACTION_ITEMS} items per transaction`);
  const outcomes: (RowOutcome | undefined)[] = rows.map(() => undefined);
  for (let attempt = 0; attempt < MAX_ROW_ATTEMPTS; attempt++) {
    const owners: Array<{ row: number; index: number }> = [];
    const batch: TransactionPart[] = [];
    items.forEach((rowItems, row) => {
      if (outcomes[row] !== undefined) return;
      rowItems.forEach((entry, index) => {
        owners.push({ row, index });
        batch.push(entry.item);
      });
    });
    if (batch.length === 0) break;
    const result = await transactWrite(batch, { conflicts: 'report' });
    if (result.ok) {
      items.forEach((_, row) => (outcomes[row] ??= { outcome: 'written' }));
      break;
    }
    const failed = result.failed.flatMap((k) => (owners[k] ? [owners[k]] : []));
    if (failed.length === 0) {
      await pause(attempt);
      continue;
    }
    const dropped = new Map<number, Set<number>>();
    for (const { row, index } of failed) {
      const meaning = items[row]![index]!.onConditionFailed;
      if (meaning.outcome === 'drop') dropped.set(row, (dropped.get(row) ?? new Set()).add(index));
      // The first refusal of a row decides it; `unchanged` items are listed first by the callers.
      else outcomes[row] ??= meaning;
    }
    for (const [row, indexes] of dropped) items[row] = items[row]!.filter((_, index) => !indexes.has(index));
  }
  if (outcomes.some((o) => o === undefined)) throw new Error('Could not write the rows: transactions kept being cancelled');
  return outcomes as RowOutcome[];
}
