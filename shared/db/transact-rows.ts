/**
 * Writes many rows, each a few conditional items, in `TransactWriteItems` batches (at most 100 items each),
 * so that every row is written whole or not at all. When a batch is cancelled, DynamoDB says which items'
 * conditions failed; each item says what that means for its row — already there (`unchanged`), refused
 * (`error`), or not needed (`drop`: the item leaves the row) — and the rest of the batch is sent again.
 * Cancellations without a failed condition (a conflicting transaction) are retried with backoff.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

export type OnConditionFailed = { outcome: 'unchanged' } | { outcome: 'error'; reason: string } | { outcome: 'drop' };

export interface RowWrite {
  items: Array<{ item: TransactItem; onConditionFailed: OnConditionFailed }>;
}

export type RowOutcome = { outcome: 'written' } | { outcome: 'unchanged' } | { outcome: 'error'; reason: string };

export const MAX_TRANSACTION_ITEMS = 100;
const MAX_ATTEMPTS = 10;

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2_000, 50 * 2 ** attempt)));

/** Outcomes in the order of `rows`; the rows' items together must fit one transaction. */
export async function transactRows(rows: readonly RowWrite[]): Promise<RowOutcome[]> {
  const items = rows.map((row) => [...row.items]);
  if (items.flat().length > MAX_TRANSACTION_ITEMS) throw new Error(`at most ${MAX_TRANSACTION_ITEMS} items per transaction`);
  const outcomes: (RowOutcome | undefined)[] = rows.map(() => undefined);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const owners: Array<{ row: number; index: number }> = [];
    const batch: TransactItem[] = [];
    items.forEach((rowItems, row) => {
      if (outcomes[row] !== undefined) return;
      rowItems.forEach((entry, index) => {
        owners.push({ row, index });
        batch.push(entry.item);
      });
    });
    if (batch.length === 0) break;
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: batch }));
      items.forEach((_, row) => (outcomes[row] ??= { outcome: 'written' }));
      break;
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const failed = (err.CancellationReasons ?? []).flatMap((reason, k) => (reason.Code === 'ConditionalCheckFailed' && owners[k] ? [owners[k]] : []));
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
  }
  if (outcomes.some((o) => o === undefined)) throw new Error('Could not write the rows: transactions kept being cancelled');
  return outcomes as RowOutcome[];
}
