/**
 * Writes whose condition may fail as an answer rather than an error: a lock already held, a state another
 * writer moved, a row not owned. A failed condition comes back as `written: false` (nothing changed); any
 * other failure is thrown.
 */
import { ConditionalCheckFailedException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  PutCommand,
  UpdateCommand,
  type DeleteCommandInput,
  type DeleteCommandOutput,
  type PutCommandInput,
  type PutCommandOutput,
  type UpdateCommandInput,
  type UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';

/**
 * `item`: the item as the failed condition saw it, when the write asked for it with
 * `ReturnValuesOnConditionCheckFailure` — raw attribute values, which the document client does not translate.
 */
export type ConditionalOutcome<Output> = { written: true; output: Output } | { written: false; item: Record<string, AttributeValue> | undefined };

export function putIf(input: PutCommandInput): Promise<ConditionalOutcome<PutCommandOutput>> {
  return settle(documentClient().send(new PutCommand(input)));
}

export function updateIf(input: UpdateCommandInput): Promise<ConditionalOutcome<UpdateCommandOutput>> {
  return settle(documentClient().send(new UpdateCommand(input)));
}

export function deleteIf(input: DeleteCommandInput): Promise<ConditionalOutcome<DeleteCommandOutput>> {
  return settle(documentClient().send(new DeleteCommand(input)));
}

async function settle<Output>(write: Promise<Output>): Promise<ConditionalOutcome<Output>> {
  try {
    return { written: true, output: await write };
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return { written: false, item: err.Item };
    throw err;
  }
}
