import {
  CreateTableCommand,
  UpdateTimeToLiveCommand,
  ResourceInUseException,
  type AttributeDefinition,
  type DynamoDBClient,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { documentClient } from './client';
import { tableKeys, tables, type TableDefinition, type TableKey } from './tables';
import { tableName } from './table-names';

function createInput(key: TableKey): CreateTableCommandInput {
  const def: TableDefinition = tables[key];
  const attributes = new Map<string, AttributeDefinition>();
  const remember = (a: { name: string; type: 'S' | 'N' }) => attributes.set(a.name, { AttributeName: a.name, AttributeType: a.type });
  remember(def.partitionKey);
  if (def.sortKey) remember(def.sortKey);
  for (const index of def.indexes ?? []) {
    remember(index.partitionKey);
    if (index.sortKey) remember(index.sortKey);
  }
  return {
    TableName: tableName(key),
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes.values()],
    KeySchema: [
      { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
      ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' as const }] : []),
    ],
    ...(def.indexes?.length
      ? {
          GlobalSecondaryIndexes: def.indexes.map((index) => ({
            IndexName: index.name,
            KeySchema: [
              { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
              ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' as const }] : []),
            ],
            Projection: index.include ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.include] } : { ProjectionType: 'ALL' as const },
          })),
        }
      : {}),
  };
}

/**
 * Creates one table of the shared list (with its time-to-live attribute) through `client`; false when it exists
 * already.
 */
export async function createTable(client: Pick<DynamoDBClient, 'send'>, key: TableKey): Promise<boolean> {
  try {
    await client.send(new CreateTableCommand(createInput(key)));
  } catch (err) {
    if (err instanceof ResourceInUseException) return false;
    throw err;
  }
  const ttl = (tables[key] as TableDefinition).ttlAttribute;
  if (ttl) {
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName(key), TimeToLiveSpecification: { AttributeName: ttl, Enabled: true } }));
  }
  return true;
}

/**
 * Creates every table of the shared list that does not exist yet (the local runtime and tests; deployed
 * tables come from the CDK stack). Returns the names it created.
 */
export async function createTables(): Promise<string[]> {
  const client = documentClient();
  const created: string[] = [];
  for (const key of tableKeys) if (await createTable(client, key)) created.push(tableName(key));
  return created;
}
