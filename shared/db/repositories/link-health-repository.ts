/**
 * Link health storage. Two parts:
 * - the schedule: `health_shard` + `health_due_at` on a source item, present only while its alerting is on
 *   (the sparse `by-health-due` index of the sources table), moved by conditional writes so two checker
 *   runs never take the same source;
 * - per-app records in the link-health table: the last probe, the failure streak and whether a failing
 *   alert went out for that streak (`alerted`). Alerts are claimed by conditional writes on that flag, so
 *   however many checks race (scheduled and on-demand), one alert and one recovery notice go out.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { queryAll, queryItems } from '../paging';
import { tableName } from '../table-names';
import type { HealthRecord, ProbeOutcome } from '../../records/link-health';
import type { Source } from '../../records/source';
import { snakeCaseFields, type SnakeCased } from '../../snake-case-fields';
import { itemUpdate } from '../item-update';

export const HEALTH_DUE_INDEX = 'by-health-due';

/** Sources of `shard` due at `now`, soonest due first, one page at a time. */
export async function* dueSources(shard: string, now: number, pageSize = 50): AsyncGenerator<Source & { health_due_at: number }> {
  const items = queryItems({
    TableName: tableName('sources'),
    IndexName: HEALTH_DUE_INDEX,
    KeyConditionExpression: 'health_shard = :shard AND health_due_at <= :now',
    ExpressionAttributeValues: { ':shard': shard, ':now': now },
    Limit: pageSize,
  });
  for await (const item of items) yield item as Source & { health_due_at: number };
}

/** Moves a source's next check from `expected` to `next`; false when someone else moved it first. */
export async function moveHealthDue(sourceId: string, expected: number, next: number): Promise<boolean> {
  const out = await updateIf(itemUpdate('sources', { source_id: sourceId }, {
    change: 'SET health_due_at = :next',
    when: 'health_due_at = :expected',
    values: { ':next': next, ':expected': expected },
  }));
  return out.written;
}

/** Takes a source out of the schedule (its configuration no longer asks for checks). */
export async function unscheduleHealth(sourceId: string, expected: number): Promise<boolean> {
  const out = await updateIf(itemUpdate('sources', { source_id: sourceId }, {
    change: 'REMOVE health_shard, health_due_at',
    when: 'health_due_at = :expected',
    values: { ':expected': expected },
  }));
  return out.written;
}

/** The file's validators are flat attributes (`file_length`, `file_etag`, `file_modified`), set by each healthy probe. */
type HealthItem = SnakeCased<Omit<HealthRecord, 'file'>> & { source_id: string; file_length?: number; file_etag?: string; file_modified?: string };

const stored = snakeCaseFields<HealthRecord>()(['appId', 'url', 'health', 'lastStatus', 'lastError', 'lastChecked', 'failures', 'alerted']);

function fromItem(item: HealthItem): HealthRecord {
  const hasFile = item.file_length !== undefined || item.file_etag !== undefined || item.file_modified !== undefined;
  return {
    ...stored.fromSnake(item),
    lastError: item.last_error,
    alerted: item.alerted === true,
    ...(hasFile ? { file: { length: item.file_length, etag: item.file_etag, lastModified: item.file_modified } } : {}),
  };
}

export async function listHealthRecords(sourceId: string): Promise<Map<number, HealthRecord>> {
  const items = (await queryAll({ TableName: tableName('linkHealth'), KeyConditionExpression: 'source_id = :s', ExpressionAttributeValues: { ':s': sourceId }, ConsistentRead: true })) as HealthItem[];
  return new Map(items.map((item) => [item.app_id, fromItem(item)]));
}

/**
 * Records one probe and returns the record as it now stands, plus, for a healthy probe, whether this write
 * ended an alerted streak (exactly one writer sees that). `freshStreak`: the app's URL changed since the
 * last record, so an old streak does not count against the new link.
 */
export async function recordProbe(
  sourceId: string,
  appId: number,
  url: string,
  outcome: ProbeOutcome,
  checkedAt: number,
  freshStreak: boolean,
): Promise<{ record: HealthRecord; endedAlertedStreak: boolean }> {
  const key = { source_id: sourceId, app_id: appId };
  const common = { ':url': url, ':status': outcome.status, ':at': checkedAt };
  if (outcome.healthy) {
    // The file's validators as this probe saw them (an absent one is removed, so a stale one never lingers).
    const file = { file_length: outcome.file?.length, file_etag: outcome.file?.etag, file_modified: outcome.file?.lastModified };
    const fileSets = Object.entries(file).filter(([, v]) => v !== undefined).map(([k]) => `${k} = :${k}`);
    const fileRemoves = Object.entries(file).filter(([, v]) => v === undefined).map(([k]) => k);
    const out = await documentClient().send(
      new UpdateCommand({
        TableName: tableName('linkHealth'),
        Key: key,
        UpdateExpression: `SET #url = :url, health = :ok, last_status = :status, last_checked = :at, failures = :zero, alerted = :false${fileSets.map((x) => `, ${x}`).join('')} REMOVE last_error${fileRemoves.map((x) => `, ${x}`).join('')}`,
        ExpressionAttributeNames: { '#url': 'url' },
        ExpressionAttributeValues: { ...common, ':ok': 'ok', ':zero': 0, ':false': false, ...Object.fromEntries(Object.entries(file).filter(([, v]) => v !== undefined).map(([k, v]) => [`:${k}`, v])) },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const wasAlerted = (out.Attributes as HealthItem | undefined)?.alerted === true;
    return {
      record: { appId, url, health: 'ok', lastStatus: outcome.status, lastError: undefined, lastChecked: checkedAt, failures: 0, alerted: false, ...(outcome.file ? { file: outcome.file } : {}) },
      endedAlertedStreak: wasAlerted && !freshStreak,
    };
  }
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName('linkHealth'),
      Key: key,
      UpdateExpression: freshStreak
        ? 'SET #url = :url, health = :failing, last_status = :status, last_error = :error, last_checked = :at, failures = :one, alerted = :false'
        : 'SET #url = :url, health = :failing, last_status = :status, last_error = :error, last_checked = :at, failures = if_not_exists(failures, :zero) + :one',
      ExpressionAttributeNames: { '#url': 'url' },
      ExpressionAttributeValues: { ...common, ':failing': 'failing', ':error': outcome.error, ':one': 1, ...(freshStreak ? { ':false': false } : { ':zero': 0 }) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return { record: fromItem(out.Attributes as HealthItem), endedAlertedStreak: false };
}

/**
 * Claims the one failing alert of the current streak: succeeds for exactly one caller once the streak has
 * reached `threshold`, and for nobody again until a healthy probe clears the flag.
 */
export async function claimFailingAlert(sourceId: string, appId: number, threshold: number): Promise<boolean> {
  const out = await updateIf(itemUpdate('linkHealth', { source_id: sourceId, app_id: appId }, {
    change: 'SET alerted = :true',
    when: 'health = :failing AND failures >= :threshold AND (attribute_not_exists(alerted) OR alerted = :false)',
    values: { ':true': true, ':false': false, ':failing': 'failing', ':threshold': threshold },
  }));
  return out.written;
}
