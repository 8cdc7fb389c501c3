import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { documentClient } from '../../shared/db/client';
import { createTable } from '../../shared/db/create-tables';
import { tableKeys, type TableKey } from '../../shared/db/tables';
import { tableName } from '../../shared/db/table-names';
import { config } from '../../shared/config';
import { atFileEnd } from './file-end';

/** This file's tables by name, each created (once) the first time a call names it. */
let current: { byName: Map<string, TableKey>; created: Map<TableKey, Promise<unknown>>; creator: DynamoDBClient } | undefined;
const watched = new WeakSet<object>();

type FileTables = NonNullable<typeof current>;

/** The table's creation, started on the first ask. */
function created(tables: FileTables, key: TableKey): Promise<unknown> {
  let creation = tables.created.get(key);
  if (!creation) {
    creation = createTable(tables.creator, key);
    // A failed creation is asked again by the next call that names the table, not remembered.
    creation.catch(() => tables.created.delete(key));
    tables.created.set(key, creation);
  }
  return creation;
}

/** Every table a DynamoDB call names: its own, a batch's, a transaction's parts'. */
function tablesNamed(input: Record<string, unknown>): string[] {
  const names: string[] = [];
  if (typeof input.TableName === 'string') names.push(input.TableName);
  if (input.RequestItems && typeof input.RequestItems === 'object') names.push(...Object.keys(input.RequestItems));
  if (Array.isArray(input.TransactItems)) {
    for (const item of input.TransactItems as Record<string, { TableName?: string } | undefined>[]) {
      for (const part of Object.values(item)) if (typeof part?.TableName === 'string') names.push(part.TableName);
    }
  }
  return names;
}

/**
 * Creates a table of this file the first time a call on the shared client names it, before the call is sent.
 * Creating all ~30 tables for each of ~100 files, used or not, was ~3,000 CreateTable calls a run, among the
 * heaviest answers DynamoDB Local gives. Each table is still the shared list's definition (`createTable`: keys,
 * indexes, time to live), made by a client of its own, so a test's count of the product's calls never sees it,
 * and before any of the product's middleware runs.
 */
function createOnFirstUse(): void {
  const client = documentClient();
  if (watched.has(client)) return;
  watched.add(client);
  // The product's client lives as long as its process; a test file's sockets end with the file. (The document
  // client's own destroy() leaves the client it wraps alone: its sockets belong to the request handler.)
  atFileEnd(() => client.config.requestHandler.destroy?.());
  client.middlewareStack.add(
    (next) => async (args) => {
      const tables = current;
      if (tables) {
        const missing = tablesNamed(args.input as Record<string, unknown>).flatMap((name) => {
          const key = tables.byName.get(name);
          return key ? [key] : [];
        });
        await Promise.all(missing.map((key) => created(tables, key)));
      }
      return next(args);
    },
    { step: 'initialize', name: 'createTableOnFirstUse', priority: 'high' },
  );
}

/**
 * Gives the calling test file its own set of tables in the run's DynamoDB Local (started by global setup),
 * so files never see each other's data. Call once at module level or in beforeAll. Each table is created on
 * its first use; `createEveryTable` creates the rest at once.
 */
export async function useIsolatedTables(): Promise<string> {
  const prefix = `t${randomBytes(4).toString('hex')}-`;
  process.env.TABLE_PREFIX = prefix;
  const { dynamoEndpoint, awsRegion, localCredentials } = config();
  current?.creator.destroy();
  const creator = new DynamoDBClient({ endpoint: dynamoEndpoint, region: awsRegion, credentials: localCredentials });
  current = { byName: new Map(tableKeys.map((key) => [tableName(key), key])), created: new Map(), creator };
  atFileEnd(() => creator.destroy());
  createOnFirstUse();
  return prefix;
}

/**
 * Creates every table of this file not created yet. For a test that times the product's calls (round trips
 * counted from calls that overlap): a table created under a measured request would hold one of its calls back.
 */
export async function createEveryTable(): Promise<void> {
  const tables = current;
  if (!tables) throw new Error('useIsolatedTables() first');
  await Promise.all(tableKeys.map((key) => created(tables, key)));
}
