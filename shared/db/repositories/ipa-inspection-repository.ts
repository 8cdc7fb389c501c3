/** The background inspector's queue: one item per app whose IPA waits to be read, deleted once it is. */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { scanItems } from '../paging';
import { tableName } from '../table-names';

export interface QueuedInspection {
  source_id: string;
  app_id: number;
  url: string;
  requested_at: number;
  /** The tenant's size cap when the inspection was asked for. */
  max_bytes: number;
}

export async function queueInspection(job: QueuedInspection): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName('ipaInspections'), Item: job }));
}

/** Queued inspections, a page at a time (the table holds only pending work). */
export async function* queuedInspections(): AsyncGenerator<QueuedInspection> {
  for await (const item of scanItems({ TableName: tableName('ipaInspections'), ConsistentRead: true })) yield item as QueuedInspection;
}

/** Drops a queued inspection, unless a newer request for another URL replaced it meanwhile. */
export async function dropInspection(job: Pick<QueuedInspection, 'source_id' | 'app_id' | 'url'>): Promise<void> {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: tableName('ipaInspections'),
        Key: { source_id: job.source_id, app_id: job.app_id },
        ConditionExpression: '#url = :url',
        ExpressionAttributeNames: { '#url': 'url' },
        ExpressionAttributeValues: { ':url': job.url },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
  }
}
