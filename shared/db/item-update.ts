/**
 * An update of one item as the repositories write it: which item, what changes and under which condition,
 * written as one short call at each site and turned into the command's input here, for a lone conditional
 * update (`updateIf`) and a transaction's part (`updatePart`) alike.
 */
import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from './table-names';
import type { TableKey } from './tables';
import { transactionPart, type TransactionPart } from './transactions';

export interface ItemChange {
  /** The update expression (`SET …`, `ADD …`, `REMOVE …`). */
  change: string;
  /** The condition: the write happens only if it holds. */
  when?: string;
  values?: Record<string, unknown>;
  names?: Record<string, string>;
}

export function itemUpdate(table: TableKey, key: Record<string, unknown>, { change, when, values, names }: ItemChange) {
  return {
    TableName: tableName(table),
    Key: key,
    UpdateExpression: change,
    ...(when ? { ConditionExpression: when } : {}),
    ...(names ? { ExpressionAttributeNames: names } : {}),
    ...(values ? { ExpressionAttributeValues: values } : {}),
  } satisfies UpdateCommandInput;
}

/** The same update as one write of a transaction. */
export function updatePart(table: TableKey, key: Record<string, unknown>, change: ItemChange): TransactionPart {
  return transactionPart({ Update: itemUpdate(table, key, change) });
}
