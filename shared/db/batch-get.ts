import { BatchGetCommand, type BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';

export type BatchKeys = NonNullable<BatchGetCommandInput['RequestItems']>;

/**
 * One BatchGetItem for keys of several tables (each table with its own `ConsistentRead`), items by physical
 * table name. DynamoDB may leave keys unprocessed under load: those are asked for again, with a short backoff.
 */
export async function batchGetAll(keys: BatchKeys): Promise<Record<string, Record<string, unknown>[]>> {
  const found: Record<string, Record<string, unknown>[]> = {};
  let pending: BatchKeys | undefined = keys;
  for (let attempt = 0; pending && Object.keys(pending).length > 0; attempt++) {
    if (attempt > 5) throw new Error('DynamoDB kept keys of a BatchGetItem unprocessed');
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    const out = await documentClient().send(new BatchGetCommand({ RequestItems: pending }));
    for (const [table, items] of Object.entries(out.Responses ?? {})) (found[table] ??= []).push(...items);
    pending = out.UnprocessedKeys as BatchKeys | undefined;
  }
  return found;
}
