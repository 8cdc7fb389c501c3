/**
 * Bulk reads and writes for the operator's imports: `BatchWriteItem` in groups of 25 and `BatchGetItem` in
 * groups of 100 (DynamoDB's limits), each retrying what DynamoDB leaves unprocessed with exponential backoff.
 *
 * Exports:
 * - `batchPut(table, items)` — writes every item (unconditional puts); throws once a group still has
 *   unprocessed items after `MAX_ATTEMPTS` tries, so a caller never believes a lost write happened.
 * - `batchGet(table, keys, projection?)` — the items that exist among `keys`, in no particular order.
 */
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';

export const WRITE_BATCH = 25;
export const GET_BATCH = 100;
const MAX_ATTEMPTS = 8;
const BASE_DELAY_MS = 50;
const MAX_DELAY_MS = 2_000;

type Item = Record<string, unknown>;

export class UnprocessedItemsError extends Error {
  override readonly name = 'UnprocessedItemsError';
}

/** Full jitter: a random wait up to base × 2^attempt, capped, so retrying importers do not move in step. */
function backoff(attempt: number): Promise<void> {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

function groups<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export async function batchPut(table: string, items: readonly object[]): Promise<void> {
  await Promise.all(groups(items, WRITE_BATCH).map((group) => putGroup(table, group)));
}

async function putGroup(table: string, group: object[]): Promise<void> {
  let requests = group.map((Item) => ({ PutRequest: { Item } }));
  for (let attempt = 0; requests.length > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new UnprocessedItemsError(`${requests.length} item(s) of ${table} still unprocessed after ${MAX_ATTEMPTS} tries`);
    if (attempt > 0) await backoff(attempt);
    const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
    requests = (out.UnprocessedItems?.[table] ?? []) as typeof requests;
  }
}

export async function batchGet(table: string, keys: readonly Item[], projection?: readonly string[]): Promise<Item[]> {
  const found = await Promise.all(groups(keys, GET_BATCH).map((group) => getGroup(table, group, projection)));
  return found.flat();
}

async function getGroup(table: string, group: Item[], projection?: readonly string[]): Promise<Item[]> {
  const names = projection ? Object.fromEntries(projection.map((p, i) => [`#p${i}`, p])) : undefined;
  const items: Item[] = [];
  let keys = group;
  for (let attempt = 0; keys.length > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new UnprocessedItemsError(`${keys.length} key(s) of ${table} still unprocessed after ${MAX_ATTEMPTS} tries`);
    if (attempt > 0) await backoff(attempt);
    const out = await documentClient().send(
      new BatchGetCommand({
        RequestItems: {
          [table]: {
            Keys: keys,
            ConsistentRead: true,
            ...(names ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}),
          },
        },
      }),
    );
    items.push(...((out.Responses?.[table] ?? []) as Item[]));
    keys = (out.UnprocessedKeys?.[table]?.Keys ?? []) as Item[];
  }
  return items;
}
