/**
 * The `sourceProtection` table: one partition per source holding its unlock codes, unlocks, block list and
 * monitor. Every rule that must hold under concurrency is a condition on a single write: a code is used by
 * the one update that finds it unused, a block replaces nothing, a monitored UDID is counted only while it
 * is not blocked.
 *
 * The operator's import writes the same entries as these functions, as transaction parts of its rows
 * (`…Part`), and asks which entries exist (`existingEntries`).
 */
import { BatchGetCommand, DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '../batch';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { queryAll } from '../paging';
import { tableName } from '../table-names';
import { transactionPart, transactWrite, type TransactionPart } from '../transactions';
import { DAY_SECONDS, type BlockEntry, type BlockReason, type CodeUse, type DeviceStanding, type EntryPage, type MonitorEntry, type MonitorRole, type UnlockCode } from '../../records/protection';

const table = () => tableName('sourceProtection');

export const codeKey = (code: string) => `code#${code}`;
export const unlockKey = (udid: string) => `unlock#${udid}`;
export const blockKey = (udid: string) => `block#${udid}`;
export const monitorKey = (udid: string, role: MonitorRole) => `monitor#${udid}#${role}`;
const ROLES: readonly MonitorRole[] = ['adder', 'cracker'];

interface CodeItem extends UnlockCode {
  source_id: string;
  item_key: string;
  /** `days` in seconds, so the unlock's end is computed inside the one update that uses the code. */
  seconds: number;
}

/** A new entry of the source's partition, refused when its key is taken. */
function newEntry(sourceId: string, itemKey: string, entry: object): TransactionPart {
  return transactionPart({ Put: { TableName: table(), Item: { source_id: sourceId, item_key: itemKey, ...entry }, ConditionExpression: 'attribute_not_exists(item_key)' } });
}

/** A new code (an imported one may already be used), refused when the code exists. */
export function newCodePart(sourceId: string, code: UnlockCode): TransactionPart {
  return newEntry(sourceId, codeKey(code.code), { ...code, seconds: code.days * DAY_SECONDS } satisfies Omit<CodeItem, 'source_id' | 'item_key'>);
}

/**
 * Stores new codes in one transaction (at most 100 items), each on the condition that no such code exists;
 * false when one already did (nothing is stored then, and the caller draws new codes).
 */
export async function putUnlockCodes(sourceId: string, codes: readonly { code: string; days: number }[], now: number): Promise<boolean> {
  return (await transactWrite(codes.map(({ code, days }) => newCodePart(sourceId, { code, days, created_at: now })), { conflicts: 'report' })).ok;
}

async function queryPrefix<T>(sourceId: string, prefix: string): Promise<T[]> {
  const items = await queryAll({ TableName: table(), KeyConditionExpression: 'source_id = :s AND begins_with(item_key, :p)', ExpressionAttributeValues: { ':s': sourceId, ':p': prefix }, ConsistentRead: true });
  return items as T[];
}

/** Which of `itemKeys` the source's partition holds. */
export async function existingEntries(sourceId: string, itemKeys: readonly string[]): Promise<Set<string>> {
  const found = await batchGet(table(), itemKeys.map((item_key) => ({ source_id: sourceId, item_key })), ['item_key']);
  return new Set(found.map((item) => String(item.item_key)));
}

export async function listUnlockCodes(sourceId: string): Promise<UnlockCode[]> {
  const items = await queryPrefix<CodeItem>(sourceId, 'code#');
  return items.map(({ code, days, created_at, udid, used_at, ends_at }) => ({ code, days: Number(days), created_at, udid, used_at, ends_at }));
}

/**
 * Uses a code for `udid`: one conditional update that succeeds only while the code is unused, so of any
 * number of concurrent unlocks exactly one wins. A refusal says whether the code does not exist or who
 * holds it (from the item as the failed condition saw it, without a second read).
 */
export async function useUnlockCode(sourceId: string, code: string, udid: string, now: number): Promise<CodeUse> {
  const out = await updateIf({
    TableName: table(),
    Key: { source_id: sourceId, item_key: codeKey(code) },
    UpdateExpression: 'SET udid = :udid, used_at = :now, ends_at = :now + seconds',
    ConditionExpression: 'attribute_exists(item_key) AND attribute_not_exists(used_at)',
    ExpressionAttributeValues: { ':udid': udid, ':now': now },
    ReturnValues: 'ALL_NEW',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  });
  if (out.written) return { used: out.output.Attributes as CodeItem };
  return out.item ? { refused: 'taken', by: unmarshallItem(out.item as Record<string, { S?: string; N?: string }>) } : { refused: 'unknown' };
}

/** `ReturnValuesOnConditionCheckFailure` hands back raw attribute values, which the document client does not translate. */
function unmarshallItem(item: Record<string, { S?: string; N?: string }>): UnlockCode {
  const text = (name: string) => item[name]?.S;
  const num = (name: string) => (item[name]?.N === undefined ? undefined : Number(item[name]!.N));
  return { code: text('code') ?? '', days: num('days') ?? 0, created_at: num('created_at') ?? 0, udid: text('udid'), used_at: num('used_at'), ends_at: num('ends_at') };
}

/**
 * Lets `udid` download the source's locked apps until `endsAt`; a later end already granted (by another
 * code) is kept, never shortened.
 */
export async function grantUnlock(sourceId: string, udid: string, endsAt: number): Promise<void> {
  await updateIf(unlockGrant(sourceId, udid, endsAt));
}

function unlockGrant(sourceId: string, udid: string, endsAt: number) {
  return {
    TableName: table(),
    Key: { source_id: sourceId, item_key: unlockKey(udid) },
    UpdateExpression: 'SET udid = :udid, ends_at = :ends',
    ConditionExpression: 'attribute_not_exists(ends_at) OR ends_at < :ends',
    ExpressionAttributeValues: { ':udid': udid, ':ends': endsAt },
  };
}

/** `grantUnlock` as a transaction part: its condition fails when a later end is already granted. */
export function unlockGrantPart(sourceId: string, udid: string, endsAt: number): TransactionPart {
  return transactionPart({ Update: unlockGrant(sourceId, udid, endsAt) });
}

/** Whether `udid` is blocked and until when it has unlocked the source: one round trip. */
export async function deviceStanding(sourceId: string, udid: string): Promise<DeviceStanding> {
  const out = await documentClient().send(
    new BatchGetCommand({
      RequestItems: {
        [table()]: {
          Keys: [blockKey(udid), unlockKey(udid)].map((item_key) => ({ source_id: sourceId, item_key })),
          ConsistentRead: true,
          ProjectionExpression: 'item_key, ends_at',
        },
      },
    }),
  );
  let items = out.Responses?.[table()] ?? [];
  // A batch may leave keys unprocessed under load; two keys are cheap to read again one at a time.
  if (out.UnprocessedKeys?.[table()]?.Keys?.length) items = [...items, ...(await retryUnprocessed(out.UnprocessedKeys[table()]!.Keys!))];
  const unlock = items.find((i) => i.item_key === unlockKey(udid));
  return { blocked: items.some((i) => i.item_key === blockKey(udid)), unlockedUntil: Number(unlock?.ends_at ?? 0) };
}

async function retryUnprocessed(keys: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const out = await documentClient().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys, ConsistentRead: true } } }));
  return out.Responses?.[table()] ?? [];
}

/**
 * Blocks `udid` and takes it out of the monitor, in one transaction. An existing entry is kept as it is
 * (its reason and time); the answer is the entry that stands.
 */
export async function blockUdid(sourceId: string, udid: string, reason: BlockReason, now: number): Promise<{ entry: BlockEntry; added: boolean }> {
  const entry: BlockEntry = { udid, reason, added_at: now };
  // Only the block's put has a condition: a refusal means the UDID was already blocked.
  if ((await transactWrite([newBlockPart(sourceId, entry), ...monitorLeaveParts(sourceId, udid)])).ok) return { entry, added: true };
  const out = await documentClient().send(new GetCommand({ TableName: table(), Key: { source_id: sourceId, item_key: blockKey(udid) }, ConsistentRead: true }));
  const existing = out.Item as BlockEntry | undefined;
  return { entry: existing ? { udid: existing.udid, reason: existing.reason, added_at: Number(existing.added_at) } : entry, added: false };
}

/** A new block, refused when the UDID is already blocked. */
export function newBlockPart(sourceId: string, entry: BlockEntry): TransactionPart {
  return newEntry(sourceId, blockKey(entry.udid), entry);
}

/** A blocked UDID leaves the monitor, in every role. */
export function monitorLeaveParts(sourceId: string, udid: string): TransactionPart[] {
  return ROLES.map((role) => transactionPart({ Delete: { TableName: table(), Key: { source_id: sourceId, item_key: monitorKey(udid, role) } } }));
}

/** A condition on the UDID not being blocked: what keeps a blocked UDID out of the monitor. */
export function notBlockedPart(sourceId: string, udid: string): TransactionPart {
  return transactionPart({ ConditionCheck: { TableName: table(), Key: { source_id: sourceId, item_key: blockKey(udid) }, ConditionExpression: 'attribute_not_exists(item_key)' } });
}

/** A new monitor entry (an imported one), refused when the UDID is already monitored in that role. */
export function newMonitorPart(sourceId: string, entry: MonitorEntry): TransactionPart {
  return newEntry(sourceId, monitorKey(entry.udid, entry.role), entry);
}

/** Removes `udid` from the block list; whether it was on it. */
export async function unblockUdid(sourceId: string, udid: string): Promise<boolean> {
  const out = await documentClient().send(new DeleteCommand({ TableName: table(), Key: { source_id: sourceId, item_key: blockKey(udid) }, ReturnValues: 'ALL_OLD' }));
  return out.Attributes !== undefined;
}

/**
 * Counts one report of `udid` in `role`, unless it is blocked (a blocked UDID is not monitored): the count
 * and the check are one transaction. False when it was blocked and nothing was counted.
 */
export async function recordMonitored(sourceId: string, udid: string, role: MonitorRole, now: number): Promise<boolean> {
  // Only the first item has a condition: a refusal means the UDID is blocked.
  const outcome = await transactWrite([
    notBlockedPart(sourceId, udid),
    {
      Update: {
        TableName: table(),
        Key: { source_id: sourceId, item_key: monitorKey(udid, role) },
        UpdateExpression: 'SET udid = :udid, #role = :role, first_seen = if_not_exists(first_seen, :now), last_seen = :now ADD #count :one',
        ExpressionAttributeNames: { '#role': 'role', '#count': 'count' },
        ExpressionAttributeValues: { ':udid': udid, ':role': role, ':now': now, ':one': 1 },
      },
    },
  ]);
  return outcome.ok;
}

const monitorEntry = ({ udid, role, count, first_seen, last_seen }: MonitorEntry): MonitorEntry => ({
  udid,
  role,
  count: Number(count),
  first_seen: Number(first_seen),
  last_seen: Number(last_seen),
});

const blockEntry = ({ udid, reason, added_at }: BlockEntry): BlockEntry => ({ udid, reason, added_at: Number(added_at) });

export async function listBlocked(sourceId: string): Promise<BlockEntry[]> {
  return (await queryPrefix<BlockEntry>(sourceId, 'block#')).map(blockEntry);
}

export async function listMonitored(sourceId: string): Promise<MonitorEntry[]> {
  return (await queryPrefix<MonitorEntry>(sourceId, 'monitor#')).map(monitorEntry);
}

/**
 * Up to `limit` entries of one list in key (UDID) order, after the entry whose key ends in `after` when
 * given: one Query of `limit + 1` items, so whether more follow is known without another read.
 */
async function pagePrefix<T>(sourceId: string, prefix: string, limit: number, after: string | undefined): Promise<EntryPage<T>> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'source_id = :s AND begins_with(item_key, :p)',
      ExpressionAttributeValues: { ':s': sourceId, ':p': prefix },
      ...(after ? { ExclusiveStartKey: { source_id: sourceId, item_key: `${prefix}${after}` } } : {}),
      Limit: limit + 1,
      ConsistentRead: true,
    }),
  );
  const items = (out.Items ?? []) as T[];
  return { items: items.slice(0, limit), more: items.length > limit };
}

/** Blocked UDIDs after the UDID `after`. */
export async function pageBlocked(sourceId: string, limit: number, after?: string): Promise<EntryPage<BlockEntry>> {
  const page = await pagePrefix<BlockEntry>(sourceId, 'block#', limit, after);
  return { items: page.items.map(blockEntry), more: page.more };
}

/** Monitor entries after the one keyed `after` (`<UDID>#<role>`, see `monitorPosition` in the records). */
export async function pageMonitored(sourceId: string, limit: number, after?: string): Promise<EntryPage<MonitorEntry>> {
  const page = await pagePrefix<MonitorEntry>(sourceId, 'monitor#', limit, after);
  return { items: page.items.map(monitorEntry), more: page.more };
}
