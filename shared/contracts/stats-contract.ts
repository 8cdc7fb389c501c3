/** What `/api/user/stats` answers, for the OpenAPI document; the service builds it (shared/domain/stats). */
import * as z from 'zod/mini';
import { describe } from './describe';
import { serviceEvent } from './event-contract';

const cents = (what: string) => describe(z.number(), `${what}, cents`);

const periodFigures = (which: string) =>
  describe(
    z.object({
      period: describe(z.string(), `The UTC ${which}: YYYY-MM-DD for the day, YYYY-MM for the month`),
      start: describe(z.number(), 'Unix seconds the period starts (00:00 UTC)'),
      end: describe(z.number(), 'Unix seconds the next period starts'),
      adds: describe(z.number(), 'Adds paid in the period (from the balance or with a code) less those given back in it; a free add (private pool, re-issue) costs nothing and is not counted'),
      refunds: describe(z.number(), 'Adds given back in the period (counted in the period of the refund, which may not be the add’s)'),
      spend: cents('What the adds cost, net of the refunds'),
      refunded: cents('What the refunds gave back'),
      agent_adds: describe(z.number(), 'Your downline’s delivered adds (every level under you)'),
      sales: cents('What your agents paid you for them'),
      cost: cents('What you paid upward for them'),
      margin: cents('sales − cost'),
    }),
    `The ${which}'s money, from the ledger's tallies (written with the entries themselves, so they agree with the ledger)`,
  );

export const statsRequest = z.object({
  agent: describe(z.optional(z.string().check(z.maxLength(64))), "One of your agents' id (one level down): its figures instead of yours (no subscription, no events); any other id answers agent_not_found (code 40006)"),
  series: describe(z.optional(z.enum(['day', 'month'])), 'Instead of the dashboard, one row per UTC day or month from `from` to `to` (the answer is then the series)'),
  from: describe(z.optional(z.string()), 'With series: the first period, YYYY-MM-DD (day) or YYYY-MM (month); default 29 days or 11 months before `to`'),
  to: describe(z.optional(z.string()), 'With series: the last period, included; default the current one. At most 92 days or 24 months in all, else stats_range_invalid (code 40002)'),
  format: describe(z.optional(z.enum(['json', 'csv'])), 'With series or by=app: csv answers the same rows as text/csv (a header row, then one line per row) as an attachment'),
  by: describe(z.optional(z.enum(['agent', 'app'])), 'Instead of the dashboard: agent, each of your direct agents (of `agent`’s with agent) with its figures for one period, 100 a page; app, each app of `source_id` with its downloads for one day and the source’s installs, 99 a page (format=csv: day,app_id,name,downloads)'),
  source_id: describe(z.optional(z.string()), 'With by=app (required): one of your sources (of `agent`’s with agent); any other answers source_not_found'),
  period: describe(z.optional(z.string()), 'With by=agent: the UTC day (YYYY-MM-DD) or month (YYYY-MM); default the current month. With by=app: the UTC day; default today'),
  cursor: describe(z.optional(z.string().check(z.maxLength(200))), 'With by=agent or by=app: the next_cursor of the previous page'),
});

const moneyRow = {
  adds: z.number(),
  refunds: z.number(),
  spend: cents('What the adds cost, net of the refunds'),
  refunded: cents('What the refunds gave back'),
  agent_adds: z.number(),
  sales: cents('What your agents paid you'),
  cost: cents('What you paid upward for them'),
  margin: cents('sales − cost'),
};

const seriesRow = z.object({
  period: describe(z.string(), 'YYYY-MM-DD or YYYY-MM (UTC)'),
  start: describe(z.number(), 'Unix seconds the period starts'),
  end: describe(z.number(), 'Unix seconds the next period starts'),
  ...moneyRow,
});

/** `series=day|month`: the money per period (the same figures as `today` and `month`). */
export const statsSeriesData = z.object({
  user_id: describe(z.string(), 'Whose figures these are'),
  agent: describe(z.nullable(z.string()), 'The agent asked for; null for your own'),
  time: describe(z.number(), 'Unix seconds the figures were read at'),
  currency: describe(z.string(), 'ISO 4217 code the site counts in'),
  series: z.enum(['day', 'month']),
  from: z.string(),
  to: z.string(),
  rows: describe(z.array(seriesRow), 'One row per period from `from` to `to`, oldest first; a period with nothing counted is all zeros'),
});

const dashboardData = z.object({
  user_id: describe(z.string(), 'Whose figures these are'),
  agent: describe(z.nullable(z.string()), 'The agent asked for; null for your own'),
  time: describe(z.number(), 'Unix seconds the figures were read at'),
  balance: cents('The balance'),
  currency: describe(z.string(), 'ISO 4217 code the site counts in'),
  devices: describe(
    z.object({
      total: describe(z.number(), 'Your certificates, in every status'),
      enabled: describe(z.number(), 'Not disabled by you (any status)'),
      disabled: describe(z.number(), 'Disabled by you (any status)'),
      pending_review: describe(z.number(), 'Review-mode adds Apple is still processing (status processing)'),
      by_status: describe(z.record(z.string(), z.number()), 'Per status: normal, processing, revoked, expired, ineligible, failed'),
    }),
    'Counted where a certificate is created, changes status or is switched, in the same transaction',
  ),
  today: periodFigures('day'),
  month: periodFigures('month'),
  expiring: z.object({
    within_days: describe(z.number(), 'The window: 7 days from now'),
    count: describe(z.number(), 'Usable certificates (normal, enabled) whose membership ends within the window'),
    at_least: describe(z.boolean(), 'true when more than the 500 entries one request reads expire: count is then a lower bound'),
    first: describe(z.array(z.object({ id: z.number(), kid: z.string(), udid: z.string(), expires_at: describe(z.number(), 'Unix seconds') })), 'The soonest five'),
  }),
  accounts: describe(
    z.array(
      z.object({
        account_id: z.string(),
        team_id: z.string(),
        state: z.string(),
        selling: z.boolean(),
        slots: describe(z.record(z.string(), z.object({ used: z.number(), free: z.number(), limit: z.number() })), 'Per device class'),
        membership_renews_at: z.nullable(z.number()),
      }),
    ),
    'Your own Apple developer accounts (the private pool) with the slots used on each',
  ),
  subscription: describe(
    z.nullable(
      z.object({
        plans_offered: describe(z.boolean(), 'false: the site sells no plans, and the tenant-wide limits apply'),
        status: z.enum(['none', 'active', 'expired']),
        plan: z.nullable(z.object({ plan_id: z.string(), name: z.string() })),
        is_trial: z.boolean(),
        expires_at: z.nullable(z.number()),
        sources: z.object({ used: z.number(), allowed: z.nullable(z.number()) }),
        apps_per_source: z.nullable(z.number()),
        published_per_source: z.nullable(z.number()),
      }),
    ),
    'As /api/appstore/manage/subscription knows it; null for an agent’s figures',
  ),
  events: describe(z.array(serviceEvent), 'Your latest five events, newest first (empty for an agent’s figures)'),
});

/** `by=agent`: each direct agent's money for one period, a page of at most 100. */
export const statsByAgentData = z.object({
  user_id: describe(z.string(), 'Whose agents these are'),
  agent: describe(z.nullable(z.string()), 'The agent asked for; null for your own agents'),
  time: describe(z.number(), 'Unix seconds the figures were read at'),
  currency: describe(z.string(), 'ISO 4217 code the site counts in'),
  period: describe(z.string(), 'YYYY-MM-DD or YYYY-MM (UTC)'),
  start: describe(z.number(), 'Unix seconds the period starts'),
  end: describe(z.number(), 'Unix seconds the next period starts'),
  rows: describe(z.array(z.object({ agent_id: z.string(), name: z.string(), suspended: z.boolean(), ...moneyRow })), 'One per direct agent, by id; the period and its start and end are the answer’s'),
  next_cursor: describe(z.nullable(z.string()), 'Pass as cursor for the next page; null on the last'),
});

/** `by=app`: one source's apps for one UTC day, a page of at most 99. */
export const statsByAppData = z.object({
  user_id: describe(z.string(), 'Whose source this is'),
  agent: describe(z.nullable(z.string()), 'The agent asked for; null for your own source'),
  source_id: z.string(),
  time: describe(z.number(), 'Unix seconds the figures were read at'),
  period: describe(z.string(), 'YYYY-MM-DD (UTC)'),
  start: describe(z.number(), 'Unix seconds the day starts'),
  end: describe(z.number(), 'Unix seconds the next day starts'),
  installs: describe(z.number(), 'UDID captures through the source’s page that day (counted with each capture)'),
  rows: describe(
    z.array(z.object({ app_id: z.number(), name: z.string(), downloads: describe(z.number(), 'Redirects the download gate answered that day; counted from its log lines within seconds locally, within about a minute deployed') })),
    'One per app of the source, by id',
  ),
  next_cursor: describe(z.nullable(z.string()), 'Pass as cursor for the next page; null on the last'),
});

/** The dashboard, with `series` the money per period, with `by=agent` per direct agent, with `by=app` per app. */
export const statsData = z.union([dashboardData, statsSeriesData, statsByAgentData, statsByAppData]);
