/** Price rows (cents) per scope (`tenant#…` or `user#…`) and item (`<mode>#<tier>#<class>`). */
import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { bandsFromItem, type PriceBand } from '../../records/price-band';

interface PriceItem {
  scope: string;
  item: string;
  cents: number;
  /** Volume bands (records/price-band.ts), where the row has any. */
  bands?: PriceBand[];
}

/** The rows of `item` that exist among `scopes`, by scope. */
export async function getPriceRows(scopes: string[], item: string): Promise<Map<string, number>> {
  const table = tableName('prices');
  const out = await documentClient().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: scopes.map((scope) => ({ scope, item })) } } }));
  return new Map(((out.Responses?.[table] ?? []) as PriceItem[]).map((row) => [row.scope, Number(row.cents)]));
}

/** The bands of the rows among `rows` that have any, by scope. */
export async function getPriceBands(scopes: string[], item: string): Promise<Map<string, PriceBand[]>> {
  const table = tableName('prices');
  const out = await documentClient().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: scopes.map((scope) => ({ scope, item })) } } }));
  return bandsByKey((out.Responses?.[table] ?? []) as PriceItem[], (row) => row.scope);
}

/** The bands of price rows read with other keys, by `key(row)`. */
export function bandsByKey<T extends { bands?: unknown }>(rows: readonly T[], key: (row: T) => string): Map<string, PriceBand[]> {
  const out = new Map<string, PriceBand[]>();
  for (const row of rows) {
    const bands = bandsFromItem(row.bands);
    if (bands) out.set(key(row), bands);
  }
  return out;
}

/** A price row; without `bands` (or with none) it has none, whatever it had before. */
export async function putPrice(scope: string, item: string, cents: number, bands?: readonly PriceBand[]): Promise<void> {
  const row: PriceItem = { scope, item, cents, ...(bands && bands.length > 0 ? { bands: bands.map((b) => ({ from: b.from, price: b.price })) } : {}) };
  await documentClient().send(new PutCommand({ TableName: tableName('prices'), Item: row }));
}
