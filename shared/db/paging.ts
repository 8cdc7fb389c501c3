/**
 * Reading every page of a Query or Scan, on lib-dynamodb's paginators: one request per page, the next asked
 * for only while DynamoDB returns a `LastEvaluatedKey`, so a caller that stops early reads no further page.
 * An input's `Limit` stays the page size.
 */
import { paginateQuery, paginateScan, type QueryCommandInput, type QueryCommandOutput, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';

/** An item as the document client returns it. */
type Item = NonNullable<QueryCommandOutput['Items']>[number];

/** The items of a Query, page by page as they are read. */
export async function* queryItems(input: QueryCommandInput): AsyncGenerator<Item> {
  for await (const page of paginateQuery({ client: documentClient() }, input)) yield* page.Items ?? [];
}

/** The items of a Scan, page by page as they are read. */
export async function* scanItems(input: ScanCommandInput): AsyncGenerator<Item> {
  for await (const page of paginateScan({ client: documentClient() }, input)) yield* page.Items ?? [];
}

/** Every item of a Query, in the order DynamoDB returns them. */
export function queryAll(input: QueryCommandInput): Promise<Item[]> {
  return collect(queryItems(input));
}

/** Every item of a Scan. */
export function scanAll(input: ScanCommandInput): Promise<Item[]> {
  return collect(scanItems(input));
}

async function collect(items: AsyncIterable<Item>): Promise<Item[]> {
  const all: Item[] = [];
  for await (const item of items) all.push(item);
  return all;
}
