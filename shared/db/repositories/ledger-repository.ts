/**
 * The ledger table and the user's ledger head (`balance`, `ledger_seq` on the user item).
 *
 * - `ledgerWriteParts(head, entries)` — the transaction parts of one change: the user item moved from `head`
 *   to the last entry's balance and sequence, on the condition that its sequence is still `head.seq` (so the
 *   entry's `balance_after` is exact whatever runs beside it), and a put per entry (its key is new).
 * - `appendLedger(head, entries, own)` — those parts after the caller's own, as one transaction; a lost race
 *   hands back the head that won it.
 * - `readLedgerHead(userId)` — the user's balance and sequence, strongly consistent; `headFromReturnedItem`
 *   the same from the user item a lost race handed back.
 *
 * With `ledgerEntries`, the ledger store of the domain (`shared/domain/ledger/ledger-store.ts`).
 * - `queryLedger(userId, …)` — a page of entries, newest first.
 * - `ledgerEntries(userId)` — every entry, oldest first (reconciliation).
 * - `readTallies(userId, periods)` — the user's tallies of those UTC days and months (ledger-tally.ts), which
 *   `ledgerWriteParts` keeps in the entries' own transaction, under their own partitions of the table.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { queryItems, scanItems } from '../paging';
import { tableName } from '../table-names';
import { transactionPart, transactWrite, type TransactionPart } from '../transactions';
import { LEDGER_REF_FIELDS, type LedgerEntry, type LedgerHead, type LedgerKind, type LedgerRef } from '../../records/ledger-entry';
import { amountAttribute, countAttribute, tallyFromItem, tallyKey, tallyOf, type Tally, type TallyPeriod } from '../../records/ledger-tally';
import { batchGet } from '../batch';

function entryItem(entry: LedgerEntry): Record<string, unknown> {
  const ref: Record<string, unknown> = {};
  for (const field of LEDGER_REF_FIELDS) if (entry.ref[field] !== undefined && entry.ref[field] !== '') ref[field] = entry.ref[field];
  return { user_id: entry.userId, seq: entry.seq, tenant_id: entry.tenantId, time: entry.time, kind: entry.kind, amount: entry.amount, balance_after: entry.balanceAfter, ...ref };
}

export function entryFromItem(item: Record<string, unknown>): LedgerEntry {
  const ref: LedgerRef = {};
  for (const field of LEDGER_REF_FIELDS) if (item[field] !== undefined) (ref as Record<string, unknown>)[field] = item[field];
  return {
    userId: String(item.user_id),
    tenantId: String(item.tenant_id),
    seq: Number(item.seq),
    time: Number(item.time),
    kind: item.kind as LedgerKind,
    amount: Number(item.amount),
    balanceAfter: Number(item.balance_after),
    ref,
  };
}

/** `entries` follow `head` in order (seq head.seq + 1, + 2, …); the user item ends at the last one. */
export function ledgerWriteParts(head: LedgerHead, entries: readonly LedgerEntry[], options: AppendOptions = {}): TransactionPart[] {
  const last = entries[entries.length - 1];
  if (!last) return [];
  const first = head.seq === 0;
  const seqCondition = first ? 'attribute_exists(user_id) AND attribute_not_exists(ledger_seq)' : 'ledger_seq = :prev';
  return [
    transactionPart({
      Update: {
        TableName: tableName('users'),
        Key: { user_id: head.userId },
        // `balance_check`: the low-balance pass looks at this user next (balance-watch-repository.ts).
        UpdateExpression: 'SET balance = :after, ledger_seq = :seq, balance_check = :check',
        // A user the ledger has not seen yet has no `ledger_seq`: its first entry's condition is that it has none.
        // `active`: an agent's charge is written only while its parent has not suspended it (agent-prices.ts).
        ConditionExpression: options.active ? `${seqCondition} AND ${NOT_SUSPENDED}` : seqCondition,
        ExpressionAttributeValues: { ':after': last.balanceAfter, ':seq': last.seq, ':check': 'due', ...(first ? {} : { ':prev': head.seq }), ...(options.active ? { ':no': false } : {}) },
        // A lost race hands back the head that won it: the retry needs no read.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    }),
    ...entries.map((entry) =>
      transactionPart({ Put: { TableName: tableName('ledger'), Item: entryItem(entry), ConditionExpression: 'attribute_not_exists(seq)' } }),
    ),
    ...tallyParts(entries),
  ];
}

/**
 * The entries counted into their user's tally of each UTC day and month they fall in (ledger-tally.ts): one
 * `ADD` per period, in the entries' own transaction, so the tallies are exactly the ledger's and cost no call.
 * The user item is in every such transaction already, so a tally adds no new contention.
 */
function tallyParts(entries: readonly LedgerEntry[]): TransactionPart[] {
  return [...tallyOf(entries)].map(([key, row]) => {
    const names: Record<string, string> = { '#tenant': 'tenant_id', '#period': 'period' };
    const values: Record<string, unknown> = { ':tenant': row.tenantId, ':period': row.period.id };
    const adds: string[] = [];
    Object.entries(row.tally).forEach(([kind, { count, amount }], i) => {
      names[`#n${i}`] = countAttribute(kind as LedgerKind);
      names[`#a${i}`] = amountAttribute(kind as LedgerKind);
      values[`:n${i}`] = count;
      values[`:a${i}`] = amount;
      adds.push(`#n${i} :n${i}`, `#a${i} :a${i}`);
    });
    return transactionPart({
      Update: {
        TableName: tableName('ledger'),
        Key: { user_id: key, seq: TALLY_SEQ },
        UpdateExpression: `SET #tenant = :tenant, #period = :period ADD ${adds.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    });
  });
}

export interface AppendOptions {
  /** Written only while the user is not suspended (an agent's charge). */
  active?: boolean;
}

/** The condition that a user item is not suspended (`suspended` absent or false; `:no` is false). */
export const NOT_SUSPENDED = '(attribute_not_exists(suspended) OR suspended = :no)';

/** Only while the user exists and is not suspended (a reseller above an adding agent, or the agent in a free add). */
export function activeUserCheck(userId: string): TransactionPart {
  return transactionPart({ ConditionCheck: { TableName: tableName('users'), Key: { user_id: userId }, ConditionExpression: `attribute_exists(user_id) AND ${NOT_SUSPENDED}`, ExpressionAttributeValues: { ':no': false } } });
}

/** A tally's sort key in the ledger table: a user's entries start at 1. */
const TALLY_SEQ = 0;

/** The key of a user's tally of one period (for reads batched with others). */
export const tallyItemKey = (userId: string, period: TallyPeriod) => ({ user_id: tallyKey(userId, period), seq: TALLY_SEQ });

/** A user's tallies of the given periods, by `tallyKey`, in one `BatchGetItem` (absent: nothing counted yet). */
export async function readTallies(userId: string, periods: readonly TallyPeriod[]): Promise<Map<string, Tally>> {
  const keys = periods.map((period) => tallyKey(userId, period));
  const items = keys.length > 0 ? await batchGet(tableName('ledger'), keys.map((key) => ({ user_id: key, seq: TALLY_SEQ }))) : [];
  const byKey = new Map(items.map((item) => [String(item.user_id), item] as const));
  return new Map(keys.map((key) => [key, tallyFromItem(byKey.get(key))]));
}

/** The head from the user item a failed condition handed back (raw attribute values); undefined without one. */
export function headFromReturnedItem(userId: string, item: Record<string, AttributeValue> | undefined): LedgerHead | undefined {
  if (!item?.tenant_id?.S) return undefined;
  return { userId, tenantId: item.tenant_id.S, balance: Number(item.balance?.N ?? 0), seq: Number(item.ledger_seq?.N ?? 0) };
}

/**
 * The caller's own parts and the change's parts in one transaction. Not written: `ownFailed` names the caller's
 * parts whose condition failed (none when the head moved or a concurrent transaction conflicted), `moved` is
 * the head that won when the user item's condition handed it back.
 */
export async function appendLedger(
  head: LedgerHead,
  entries: readonly LedgerEntry[],
  own: readonly TransactionPart[],
  options: AppendOptions = {},
): Promise<{ ok: true } | { ok: false; ownFailed: number[]; moved: LedgerHead | undefined; suspended?: boolean }> {
  const outcome = await transactWrite([...own, ...ledgerWriteParts(head, entries, options)], { conflicts: 'report' });
  if (outcome.ok) return { ok: true };
  const returned = outcome.returned?.[own.length];
  // Suspended while its sequence still held: the condition failed for that, not for a race.
  const suspended = options.active === true && returned?.suspended?.BOOL === true;
  return { ok: false, ownFailed: outcome.failed.filter((index) => index < own.length), moved: headFromReturnedItem(head.userId, returned), ...(suspended ? { suspended } : {}) };
}

/**
 * `appendLedger` for several users in one transaction (an agent's add moves every level above it). Not
 * written: `ownFailed` as there, and `moved` the heads that won, by user, where a user item's condition handed
 * one back.
 */
export async function appendLedgerMoves(
  moves: ReadonlyArray<{ head: LedgerHead; entries: readonly LedgerEntry[] }>,
  own: readonly TransactionPart[],
): Promise<{ ok: true } | { ok: false; ownFailed: number[]; moved: Map<string, LedgerHead> }> {
  const parts: TransactionPart[] = [...own];
  const userPartAt = new Map<string, number>();
  for (const move of moves) {
    if (move.entries.length === 0) continue;
    userPartAt.set(move.head.userId, parts.length);
    parts.push(...ledgerWriteParts(move.head, move.entries));
  }
  const outcome = await transactWrite(parts, { conflicts: 'report' });
  if (outcome.ok) return { ok: true };
  const moved = new Map<string, LedgerHead>();
  for (const [userId, at] of userPartAt) {
    const head = headFromReturnedItem(userId, outcome.returned?.[at]);
    if (head) moved.set(userId, head);
  }
  return { ok: false, ownFailed: outcome.failed.filter((index) => index < own.length), moved };
}

/** The user item's attributes a head is made of. */
export const HEAD_ATTRIBUTES = ['user_id', 'tenant_id', 'balance', 'ledger_seq'] as const;

export function headFromItem(userId: string, item: Record<string, unknown>): LedgerHead {
  return { userId, tenantId: String(item.tenant_id), balance: Number(item.balance ?? 0), seq: Number(item.ledger_seq ?? 0) };
}

export async function readLedgerHead(userId: string): Promise<LedgerHead | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('users'), Key: { user_id: userId }, ConsistentRead: true, ProjectionExpression: HEAD_ATTRIBUTES.join(', ') }),
  );
  return out.Item ? headFromItem(userId, out.Item) : undefined;
}

export interface LedgerPageQuery {
  userId: string;
  /** Entries older than this sequence (the cursor). */
  beforeSeq?: number;
  kinds?: readonly LedgerKind[];
  /** Epoch seconds, inclusive. */
  from?: number;
  to?: number;
  limit: number;
  /** At most this many entries are read to fill the page (filters may skip many). */
  readBudget: number;
}

/**
 * Up to `limit` matching entries newest first, and whether more may follow (then `lastSeq` is where the next
 * page starts). Reading stops at the budget, so a page may come back short with more to read.
 */
export async function queryLedger(q: LedgerPageQuery): Promise<{ entries: LedgerEntry[]; more: boolean; lastSeq: number | undefined }> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':u': q.userId };
  const filters: string[] = [];
  if (q.kinds && q.kinds.length > 0) {
    names['#kind'] = 'kind';
    filters.push(`#kind IN (${q.kinds.map((kind, i) => ((values[`:k${i}`] = kind), `:k${i}`)).join(', ')})`);
  }
  if (q.from !== undefined) {
    names['#time'] = 'time';
    values[':from'] = q.from;
    filters.push('#time >= :from');
  }
  if (q.to !== undefined) {
    names['#time'] = 'time';
    values[':to'] = q.to;
    filters.push('#time <= :to');
  }
  const entries: LedgerEntry[] = [];
  let start: Record<string, unknown> | undefined = q.beforeSeq !== undefined ? { user_id: q.userId, seq: q.beforeSeq } : undefined;
  let read = 0;
  while (read < q.readBudget) {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName('ledger'),
        KeyConditionExpression: 'user_id = :u',
        ...(filters.length > 0 ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        ConsistentRead: true,
        // One more than the page: whether another entry follows is known without a further request. Filters
        // skip entries, so a filtered read takes at least a hundred at a time.
        Limit: Math.min(q.readBudget - read, filters.length > 0 ? Math.max(q.limit + 1 - entries.length, 100) : q.limit + 1 - entries.length),
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    read += out.ScannedCount ?? 0;
    for (const item of out.Items ?? []) entries.push(entryFromItem(item));
    if (entries.length > q.limit) {
      const page = entries.slice(0, q.limit);
      return { entries: page, more: true, lastSeq: page[page.length - 1]!.seq };
    }
    start = out.LastEvaluatedKey;
    if (!start) return { entries, more: false, lastSeq: undefined };
  }
  // The budget ran out before the page filled: the next page starts where reading stopped.
  return { entries, more: true, lastSeq: Number(start!.seq) };
}

/** Every entry of the user, oldest first. */
export async function* ledgerEntries(userId: string): AsyncGenerator<LedgerEntry> {
  for await (const item of queryItems({ TableName: tableName('ledger'), KeyConditionExpression: 'user_id = :u', ExpressionAttributeValues: { ':u': userId }, ConsistentRead: true })) {
    yield entryFromItem(item);
  }
}

/** The head of every user (of one tenant when given): the operator's reconciliation reads them all. */
export async function* scanLedgerHeads(tenantId?: string): AsyncGenerator<LedgerHead> {
  for await (const item of scanItems({
    TableName: tableName('users'),
    ConsistentRead: true,
    ProjectionExpression: 'user_id, tenant_id, balance, ledger_seq',
    ...(tenantId !== undefined ? { FilterExpression: 'tenant_id = :t', ExpressionAttributeValues: { ':t': tenantId } } : {}),
  })) {
    yield { userId: String(item.user_id), tenantId: String(item.tenant_id), balance: Number(item.balance ?? 0), seq: Number(item.ledger_seq ?? 0) };
  }
}

/**
 * Sets a user's tallies to `rows` (whole items, not increments) on the condition that the user's ledger is still
 * at `head.seq`, in transactions of up to 99 tallies each: a rebuild computed from the entries up to `head`
 * never overwrites what a change after it added. False when the ledger moved (read again and retry); tallies a
 * transaction before it set were exact at `head` and stay so, since later changes only add to them.
 */
export async function setTalliesAt(head: LedgerHead, rows: ReadonlyArray<{ period: TallyPeriod; tally: Tally }>): Promise<boolean> {
  for (let i = 0; i < rows.length; i += 99) {
    const parts: TransactionPart[] = [
      transactionPart({
        ConditionCheck: {
          TableName: tableName('users'),
          Key: { user_id: head.userId },
          ConditionExpression: head.seq === 0 ? 'attribute_not_exists(ledger_seq)' : 'ledger_seq = :seq',
          ...(head.seq === 0 ? {} : { ExpressionAttributeValues: { ':seq': head.seq } }),
        },
      }),
      ...rows.slice(i, i + 99).map(({ period, tally }) => {
        const item: Record<string, unknown> = { ...tallyItemKey(head.userId, period), tenant_id: head.tenantId, period: period.id };
        for (const [kind, figures] of Object.entries(tally)) {
          item[countAttribute(kind as LedgerKind)] = figures.count;
          item[amountAttribute(kind as LedgerKind)] = figures.amount;
        }
        return transactionPart({ Put: { TableName: tableName('ledger'), Item: item } });
      }),
    ];
    if (!(await transactWrite(parts, { conflicts: 'report' })).ok) return false;
  }
  return true;
}
