/** Price rows (cents) per scope (`tenant#…` or `user#…`) and item (`<mode>#<tier>#<class>`). */
import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';

interface PriceItem {
  scope: string;
  item: string;
  cents: number;
}

/** The rows of `item` that exist among `scopes`, by scope. */
export async function getPriceRows(scopes: string[], item: string): Promise<Map<string, number>> {
  const table = tableName('prices');
  const out = await documentClient().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: scopes.map((scope) => ({ scope, item })) } } }));
  return new Map(((out.Responses?.[table] ?? []) as PriceItem[]).map((row) => [row.scope, Number(row.cents)]));
}

export async function putPrice(scope: string, item: string, cents: number): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName('prices'), Item: { scope, item, cents } }));
}
