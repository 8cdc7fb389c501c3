/**
 * What the dashboard reads by key, in one BatchGetItem: the user's ledger head (its balance), its tallies of
 * the periods asked for (ledger-tally.ts) and, for the caller's own figures, its running subscription. One round
 * trip instead of three, strongly consistent, whatever the user's volume.
 */
import { batchGetAll } from '../batch';
import { tableName } from '../table-names';
import { HEAD_ATTRIBUTES, headFromItem, tallyItemKey } from './ledger-repository';
import { currentSubscriptionKey, subscriptionFromItem } from './subscription-repository';
import { tallyFromItem, tallyKey, type Tally, type TallyPeriod } from '../../records/ledger-tally';
import type { LedgerHead } from '../../records/ledger-entry';
import type { Subscription } from '../../records/subscription';

export interface StatsSnapshot {
  head: LedgerHead | undefined;
  /** By `tallyKey`; a period nothing was counted in is an empty tally. */
  tallies: Map<string, Tally>;
  subscription: Subscription | undefined;
}

export async function readStatsSnapshot(input: { userId: string; periods: readonly TallyPeriod[]; subscription: boolean }): Promise<StatsSnapshot> {
  const users = tableName('users');
  const ledger = tableName('ledger');
  const subscriptions = tableName('subscriptions');
  const found = await batchGetAll({
    [users]: { Keys: [{ user_id: input.userId }], ConsistentRead: true, ProjectionExpression: HEAD_ATTRIBUTES.join(', ') },
    [ledger]: { Keys: input.periods.map((period) => tallyItemKey(input.userId, period)), ConsistentRead: true },
    ...(input.subscription ? { [subscriptions]: { Keys: [currentSubscriptionKey(input.userId)], ConsistentRead: true } } : {}),
  });
  const userItem = found[users]?.[0];
  const tallyItems = new Map((found[ledger] ?? []).map((item) => [String(item.user_id), item] as const));
  const subscriptionItem = found[subscriptions]?.[0];
  return {
    head: userItem ? headFromItem(input.userId, userItem) : undefined,
    tallies: new Map(input.periods.map((period) => [tallyKey(input.userId, period), tallyFromItem(tallyItems.get(tallyKey(input.userId, period)))])),
    subscription: subscriptionItem ? subscriptionFromItem(subscriptionItem) : undefined,
  };
}
