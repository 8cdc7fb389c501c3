/**
 * A reseller's dashboard figures (`/api/user/stats`), each read in a bounded number of DynamoDB calls whatever
 * the volume — no scan, no query that grows with the devices or the ledger:
 *
 * - the balance, today's and this month's money (UTC) and the subscription, in one BatchGetItem: the user item,
 *   the ledger's tallies of the two periods — kept in the transactions that write the entries
 *   (records/ledger-tally.ts), so they are the ledger's own figures — and the running subscription;
 * - certificates expiring within 7 days: one Query of the owner's expiry index, evaluating at most
 *   `EXPIRING_BUDGET` entries (the count is then "at least");
 * - the caller's own Apple accounts with their slots (one Query of the pool index: a reseller has a few);
 * - the latest events (one Query).
 *
 * With `agent`, the figures are one of the caller's own agents' (one level down; anyone else is the device list's
 * `agent_not_found`): its balance, money, expiring certificates and accounts — never its subscription or events.
 */
import { readStatsSnapshot } from '../../db/repositories/stats-snapshot-repository';
import { expiringDevices } from '../../db/repositories/device-list-repository';
import { latestEvents } from '../../db/repositories/event-repository';
import { listOwnedAccounts } from '../../db/repositories/account-repository';
import { isActive, type Subscription } from '../../records/subscription';
import { DAY_SECONDS } from '../../records/plan';
import { moneyFigures, periodBounds, tallyKey, tallyPeriods, type TallyPeriod } from '../../records/ledger-tally';
import type { Tenant } from '../../records/tenant';
import type { TokenOwner } from '../../records/user';
import { ownerAccountView } from '../../records/account';
import { DomainError } from '../errors';
import { readSubject } from '../agents/agent-access';

/** Index entries one request reads at most for the expiring count. */
export const EXPIRING_BUDGET = 500;
/** The soonest expiring certificates named in the answer. */
export const EXPIRING_LISTED = 5;
export const EXPIRING_DAYS = 7;
/** The latest events shown. */
export const LATEST_EVENTS = 5;

export interface StatsRequest {
  agent: string | undefined;
}

function money(period: TallyPeriod, tally: Parameters<typeof moneyFigures>[0], now: number) {
  const { start, end } = periodBounds(period.kind, now);
  return { period: period.id, start, end, ...moneyFigures(tally) };
}

export async function readStats(owner: TokenOwner, tenant: Tenant, request: StatsRequest, now: number) {
  // A token is valid on every site, its money only on its own tenant's (as the balance and the ledger answer).
  if (owner.tenantId !== tenant.tenantId) throw new DomainError('token_invalid', 'token_invalid');
  const subject = await readSubject(owner, tenant, request.agent);
  const own = request.agent === undefined;
  const [day, month] = tallyPeriods(now);
  const [{ head, tallies, subscription }, expiring, accounts, events] = await Promise.all([
    readStatsSnapshot({ userId: subject.userId, periods: [day, month], subscription: own }),
    expiringDevices({ userId: subject.userId, tenantId: tenant.tenantId, from: now, until: now + EXPIRING_DAYS * DAY_SECONDS, budget: EXPIRING_BUDGET, firstCount: EXPIRING_LISTED }),
    listOwnedAccounts(subject.userId),
    own ? latestEvents(subject.userId, LATEST_EVENTS) : [],
  ]);
  // Deleted since the token was checked: the token no longer names anyone.
  if (!head) throw new DomainError('token_invalid', 'token_invalid');
  const here = subscription?.tenantId === tenant.tenantId ? subscription : undefined;
  return {
    user_id: subject.userId,
    agent: own ? null : subject.userId,
    time: now,
    balance: head.balance,
    currency: tenant.settings.currency,
    today: money(day, tallies.get(tallyKey(subject.userId, day)) ?? {}, now),
    month: money(month, tallies.get(tallyKey(subject.userId, month)) ?? {}, now),
    expiring: {
      within_days: EXPIRING_DAYS,
      count: expiring.count,
      at_least: expiring.more,
      first: expiring.first.map((d) => ({ id: d.id, kid: d.kid, udid: d.udid, expires_at: d.ytime })),
    },
    accounts: accounts
      .filter((a) => a.tenantId === tenant.tenantId)
      .map((a) => {
        const view = ownerAccountView(a);
        return { account_id: view.account_id, team_id: view.team_id, state: view.state, selling: view.selling, slots: view.slots, membership_renews_at: view.membership_renews_at };
      }),
    subscription: own ? subscriptionFigures(tenant, here, now) : null,
    events: events,
  };
}

function subscriptionFigures(tenant: Tenant, subscription: Subscription | undefined, now: number) {
  return {
    plans_offered: tenant.settings.plansOffered,
    status: !subscription ? 'none' : isActive(subscription, now) ? 'active' : 'expired',
    plan: subscription ? { plan_id: subscription.planId, name: subscription.planName } : null,
    is_trial: subscription?.trial ?? false,
    expires_at: subscription?.expiresAt ?? null,
    sources: { used: subscription?.sourceCount ?? 0, allowed: subscription ? subscription.limits.sources : null },
    apps_per_source: subscription ? subscription.limits.appsPerSource : null,
    published_per_source: subscription ? subscription.limits.publishedPerSource : null,
  };
}
