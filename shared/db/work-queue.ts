/**
 * The sparse indexes that hold work waiting its turn (reservations to look at, stale holds, possible
 * registrations, subscription notices): an item is in the index only while its partition attribute is set,
 * and the sort key says when it is due. A pass reads the head of one such queue with one Query.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { tableName } from './table-names';
import type { TableKey } from './tables';

export interface QueueHead {
  table: TableKey;
  index: string;
  /** The partition attribute and the value naming the queue. */
  queue: readonly [name: string, value: string];
  /** Items whose sort key is before (`<`) or at most (`<=`) `bound`, soonest first. */
  due: readonly [name: string, op: '<' | '<=', bound: number];
  limit: number;
}

export async function queueHead({ table, index, queue, due, limit }: QueueHead): Promise<Record<string, unknown>[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(table),
      IndexName: index,
      KeyConditionExpression: `#q = :q AND #due ${due[1]} :bound`,
      ExpressionAttributeNames: { '#q': queue[0], '#due': due[0] },
      ExpressionAttributeValues: { ':q': queue[1], ':bound': due[2] },
      Limit: limit,
    }),
  );
  return out.Items ?? [];
}
