/**
 * Stream consumer of the `events` table: every new event goes to its user's webhook. Powertools' batch
 * processor reports only the records that threw (a DynamoDB failure), so one bad record never holds back the
 * others; a receiver that fails is not an error here: the attempt is rescheduled on the item and the retry job
 * takes it from there.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { nowSeconds } from '../../shared/clock';
import { storedEventFromItem } from '../../shared/db/repositories/event-repository';
import { dispatchStoredEvent } from '../../shared/domain/events/dispatcher';
import { logger } from '../../shared/logger';

const processor = new BatchProcessor(EventType.DynamoDBStreams);

async function recordHandler(record: DynamoDBRecord): Promise<void> {
  // Only new events: the dispatcher's own updates (claims, outcomes) come back as MODIFY records.
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return;
  const item = unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>);
  const outcome = await dispatchStoredEvent(storedEventFromItem(item), nowSeconds());
  logger.debug('Event dispatched from the stream', { eventId: String(item.id), outcome });
}

export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
  // The stream's records are events of users: never logged whole.
  .use(injectLambdaContext(logger, { logEvent: false }))
  .handler(async (event, context) => processPartialResponse(event, recordHandler, processor, { context }));
