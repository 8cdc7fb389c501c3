/**
 * What the dashboard reads by key, in one BatchGetItem: the user's ledger head (its balance), its tallies of
 * the periods asked for (ledger-tally.ts), its devices by state (device-tally.ts) and, for the caller's own
 * figures, its running subscription. One round
 * trip instead of three, strongly consistent, whatever the user's volume.
 */
import { batchGetAll } from '../batch';
import { tableName } from '../table-names';
import { HEAD_ATTRIBUTES, headFromItem, tallyItemKey } from './ledger-repository';
import { currentSubscriptionKey, subscriptionFromItem } from './subscription-repository';
import { deviceTallyItemKey } from './device-tally-repository';
import { deviceTallyFromItem, type DeviceTally } from '../../records/device-tally';
import { tallyFromItem, tallyKey, type Tally, type TallyPeriod } from '../../records/ledger-tally';
import type { LedgerHead } from '../../records/ledger-entry';
import type { Subscription } from '../../records/subscription';

export interface StatsSnapshot {
  head: LedgerHead | undefined;
  /** By `tallyKey`; a period nothing was counted in is an empty tally. */
  tallies: Map<string, Tally>;
  subscription: Subscription | undefined;
  devices: DeviceTally;
}

export async function readStatsSnapshot(input: { userId: string; periods: readonly TallyPeriod[]; subscription: boolean }): Promise<StatsSnapshot> {
  const users = tableName('users');
  const ledger = tableName('ledger');
  const subscriptions = tableName('subscriptions');
  const counters = tableName('counters');
  const found = await batchGetAll({
    [users]: { Keys: [{ user_id: input.userId }], ConsistentRead: true, ProjectionExpression: HEAD_ATTRIBUTES.join(', ') },
    ...(input.periods.length > 0 ? { [ledger]: { Keys: input.periods.map((period) => tallyItemKey(input.userId, period)), ConsistentRead: true } } : {}),
    [counters]: { Keys: [deviceTallyItemKey(input.userId)], ConsistentRead: true },
    ...(input.subscription ? { [subscriptions]: { Keys: [currentSubscriptionKey(input.userId)], ConsistentRead: true } } : {}),
  });
  const userItem = found[users]?.[0];
  const tallyItems = new Map((found[ledger] ?? []).map((item) => [String(item.user_id), item] as const));
  const subscriptionItem = found[subscriptions]?.[0];
  return {
    head: userItem ? headFromItem(input.userId, userItem) : undefined,
    tallies: new Map(input.periods.map((period) => [tallyKey(input.userId, period), tallyFromItem(tallyItems.get(tallyKey(input.userId, period)))])),
    subscription: subscriptionItem ? subscriptionFromItem(subscriptionItem) : undefined,
    devices: deviceTallyFromItem(found[counters]?.[0]),
  };
}

/** BatchGetItem takes at most 100 keys: a series is one request, so its periods are bounded below that. */
export const SERIES_KEYS_MAX = 100;

/**
 * A user's tallies of up to 100 periods (a series), by `tallyKey`, in one `BatchGetItem`: each period is its own
 * partition, so a key lookup is the bounded read (a Query could not span partitions). Strongly consistent, as
 * the dashboard's own periods: a series read right after an add counts it.
 */
export async function readTallySeries(userId: string, periods: readonly TallyPeriod[]): Promise<Map<string, Tally>> {
  if (periods.length > SERIES_KEYS_MAX) throw new Error(`a series reads at most ${SERIES_KEYS_MAX} periods, not ${periods.length}`);
  const ledger = tableName('ledger');
  const found = periods.length > 0 ? await batchGetAll({ [ledger]: { Keys: periods.map((period) => tallyItemKey(userId, period)), ConsistentRead: true } }) : {};
  const byKey = new Map((found[ledger] ?? []).map((item) => [String(item.user_id), item] as const));
  return new Map(periods.map((period) => [tallyKey(userId, period), tallyFromItem(byKey.get(tallyKey(userId, period)))]));
}

/** Several users' tallies of one period (a parent's page of agents, at most 100), by user id, in one `BatchGetItem`. */
export async function readTalliesOf(userIds: readonly string[], period: TallyPeriod): Promise<Map<string, Tally>> {
  if (userIds.length > SERIES_KEYS_MAX) throw new Error(`one batch reads at most ${SERIES_KEYS_MAX} tallies, not ${userIds.length}`);
  const ledger = tableName('ledger');
  const found = userIds.length > 0 ? await batchGetAll({ [ledger]: { Keys: userIds.map((userId) => tallyItemKey(userId, period)), ConsistentRead: true } }) : {};
  const byKey = new Map((found[ledger] ?? []).map((item) => [String(item.user_id), item] as const));
  return new Map(userIds.map((userId) => [userId, tallyFromItem(byKey.get(tallyKey(userId, period)))]));
}
