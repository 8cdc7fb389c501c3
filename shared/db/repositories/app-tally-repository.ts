/**
 * Per-app figures by UTC day, in the counters table: `app#<owner>#<source>#<app>#<YYYY-MM-DD>` with `downloads`
 * (the gate's lines, summed by the aggregator) and `src#<owner>#<source>#<YYYY-MM-DD>` with `installs` (the
 * source's UDID captures, counted in the capture's own transaction). A batch of download lines is counted at
 * most once: its ADDs go in one transaction with a marker named by the batch (`batch#<id>`, written only if
 * absent, gone after a day by TTL), so a redelivered batch adds nothing.
 */
import { batchGet } from '../batch';
import { tableName } from '../table-names';
import { transactionPart, transactWrite, type TransactionPart } from '../transactions';

export const appDayKey = (owner: string, source: string, app: number, day: string) => `app#${owner}#${source}#${app}#${day}`;
export const sourceDayKey = (owner: string, source: string, day: string) => `src#${owner}#${source}#${day}`;

/** The UTC day (`2026-11-28`) of a time in Unix seconds. */
export const utcDay = (at: number) => new Date(at * 1000).toISOString().slice(0, 10);

/** A capture counted as an install of its source, in the capture's own transaction. */
export function installPart(owner: string, source: string, at: number): TransactionPart {
  return transactionPart({ Update: { TableName: tableName('counters'), Key: { counter: sourceDayKey(owner, source, utcDay(at)) }, UpdateExpression: 'ADD installs :one', ExpressionAttributeValues: { ':one': 1 } } });
}

/** Transactions hold 100 items: 99 counts and the marker. */
const COUNTS_PER_WRITE = 99;

/**
 * Adds `counts` (by counter key) under the marker of `batchId`: every chunk of 99 keys is its own transaction with
 * its own marker (`batch#<id>#<chunk>`), so a redelivered batch adds nothing it added before. Returns how many
 * chunks were counted now (the others were counted already).
 */
export async function addDownloadCounts(batchId: string, counts: ReadonlyMap<string, number>, now: number): Promise<number> {
  const entries = [...counts.entries()];
  let counted = 0;
  for (let i = 0; i * COUNTS_PER_WRITE < entries.length; i++) {
    const chunk = entries.slice(i * COUNTS_PER_WRITE, (i + 1) * COUNTS_PER_WRITE);
    const outcome = await transactWrite([
      transactionPart({ Put: { TableName: tableName('counters'), Item: { counter: `batch#${batchId}#${i}`, expires_at: now + 86_400 }, ConditionExpression: 'attribute_not_exists(#c)', ExpressionAttributeNames: { '#c': 'counter' } } }),
      ...chunk.map(([counter, n]) => transactionPart({ Update: { TableName: tableName('counters'), Key: { counter }, UpdateExpression: 'ADD downloads :n', ExpressionAttributeValues: { ':n': n } } })),
    ]);
    if (outcome.ok) counted++;
  }
  return counted;
}

/** Downloads by counter key among `keys` (absent: 0), strongly consistent, in groups of 100. */
export async function readAppCounts(keys: readonly string[]): Promise<Map<string, { downloads: number; installs: number }>> {
  const items = keys.length > 0 ? await batchGet(tableName('counters'), keys.map((counter) => ({ counter }))) : [];
  return new Map(items.map((item) => [String(item.counter), { downloads: Number(item.downloads ?? 0), installs: Number(item.installs ?? 0) }] as const));
}
