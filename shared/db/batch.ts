/**
 * Batched reads and writes. DynamoDB may leave part of a batch unprocessed under load: that part is sent
 * again after a backoff, and a caller is never told a lost write happened or a skipped key is absent.
 *
 * Exports:
 * - `batchGetAll(keys)` — one `BatchGetItem` for keys of several tables (each with its own options), items
 *   by physical table name: a request's reads in one round trip, retried briefly.
 * - `batchGet(table, keys, projection?)` — the items that exist among any number of keys (strongly
 *   consistent), in groups of 100 and no particular order: the operator's imports, retried patiently.
 * - `batchPut(table, items)` — unconditional puts in groups of 25, retried patiently.
 * - `batchDelete(table, keys)` — unconditional deletes in groups of 25, retried patiently.
 */
import { BatchGetCommand, BatchWriteCommand, type BatchWriteCommandInput, type BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { ServiceError } from '../service-error';

const WRITE_BATCH = 25;
const GET_BATCH = 100;

type Item = Record<string, unknown>;
type BatchKeys = NonNullable<BatchGetCommandInput['RequestItems']>;

/** DynamoDB kept throttling part of a batch through every retry. */
export class UnprocessedItemsError extends ServiceError<'unavailable', 'unprocessed_items'> {
  override readonly name = 'UnprocessedItemsError';

  constructor(message: string) {
    super('unavailable', 'unprocessed_items', message);
  }
}

interface Retry {
  tries: number;
  wait(attempt: number): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A request waits on its reads: a few short pauses, then it fails. */
const BRIEF: Retry = { tries: 6, wait: (attempt) => sleep(20 * 2 ** attempt) };

/** Full jitter: a random wait up to 50 ms × 2^attempt (at most 2 s), so retrying importers do not move in step. */
const PATIENT: Retry = { tries: 8, wait: (attempt) => sleep(Math.random() * Math.min(2_000, 50 * 2 ** attempt)) };

function groups<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export function batchGetAll(keys: BatchKeys): Promise<Record<string, Item[]>> {
  return getAll(keys, BRIEF);
}

export async function batchGet(table: string, keys: readonly Item[], projection?: readonly string[]): Promise<Item[]> {
  const names = projection ? Object.fromEntries(projection.map((p, i) => [`#p${i}`, p])) : undefined;
  const read = (group: Item[]) =>
    getAll({ [table]: { Keys: group, ConsistentRead: true, ...(names ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}) } }, PATIENT);
  const found = await Promise.all(groups(keys, GET_BATCH).map(read));
  return found.flatMap((byTable) => byTable[table] ?? []);
}

/** Unprocessed keys are asked for again with the options their table was first asked with. */
async function getAll(requests: BatchKeys, retry: Retry): Promise<Record<string, Item[]>> {
  const found: Record<string, Item[]> = {};
  let pending: BatchKeys = requests;
  for (let attempt = 0; Object.keys(pending).length > 0; attempt++) {
    if (attempt >= retry.tries) throw new UnprocessedItemsError(`keys of ${Object.keys(pending).join(', ')} still unprocessed after ${retry.tries} tries`);
    if (attempt > 0) await retry.wait(attempt);
    const out = await documentClient().send(new BatchGetCommand({ RequestItems: pending }));
    for (const [table, items] of Object.entries(out.Responses ?? {})) (found[table] ??= []).push(...items);
    pending = Object.fromEntries(
      Object.entries(out.UnprocessedKeys ?? {}).flatMap(([table, left]) => (left.Keys?.length ? [[table, { ...requests[table], Keys: left.Keys }]] : [])),
    );
  }
  return found;
}

export async function batchPut(table: string, items: readonly object[]): Promise<void> {
  await Promise.all(groups(items, WRITE_BATCH).map((group) => writeGroup(table, group.map((Item) => ({ PutRequest: { Item: Item as Item } })))));
}

/** Unconditional deletes of `keys` in groups of 25, retried patiently. */
export async function batchDelete(table: string, keys: readonly Item[]): Promise<void> {
  await Promise.all(groups(keys, WRITE_BATCH).map((group) => writeGroup(table, group.map((Key) => ({ DeleteRequest: { Key } })))));
}

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** One BatchWriteItem of up to 25 requests, sending what DynamoDB left unprocessed again until none is left. */
async function writeGroup(table: string, group: WriteRequest[]): Promise<void> {
  let requests = group;
  for (let attempt = 0; requests.length > 0; attempt++) {
    if (attempt >= PATIENT.tries) throw new UnprocessedItemsError(`${requests.length} write(s) of ${table} still unprocessed after ${PATIENT.tries} tries`);
    if (attempt > 0) await PATIENT.wait(attempt);
    const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
    requests = (out.UnprocessedItems?.[table] ?? []) as WriteRequest[];
  }
}
