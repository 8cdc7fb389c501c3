/** A user's own account: balance, ledger, subscription, webhook and events. */
import type { RouteDefinition } from './definitions';

export const userBalanceRoute = {
  function: 'user-balance',
  methods: ['GET', 'POST'],
  path: '/api/user/balance',
  auth: 'token',
  rateLimit: 60,
  envelope: 'device',
  description: "The caller's balance and the prices they pay",
  // counters: the chain's price read can take the month's add counts (volume bands); the balance asks for none.
  data: { read: ['users', 'prices', 'counters'] },
} as const satisfies RouteDefinition;

export const userLedgerRoute = {
  function: 'user-ledger',
  methods: ['GET', 'POST'],
  path: '/api/user/ledger',
  auth: 'token',
  rateLimit: 60,
  envelope: 'device',
  description: "The caller's ledger (or one of their agents'): every change of the balance and use of the codes, newest first",
  // users: the `agent` filter checks the agent is the caller's own.
  data: { read: ['ledger', 'users'] },
} as const satisfies RouteDefinition;

/**
 * The dashboard's figures, each from a bounded read (never a scan): the balance, today's and this month's money
 * from the ledger's tallies, certificates expiring soon, the own Apple accounts, the subscription and the latest
 * events; with `agent`, one of the caller's own agents' figures. With `series`, the money per UTC day or month
 * (JSON or CSV); with `by=agent`, each direct agent's money for one period (paged).
 */
export const userStatsRoute = {
  function: 'user-stats',
  methods: ['GET'],
  path: '/api/user/stats',
  auth: 'bearer',
  rateLimit: 60,
  envelope: 'management',
  description: "The caller's (or an agent's) dashboard: balance, devices by state, today's and this month's money (UTC), certificates ending in 7 days, Apple accounts, subscription, events; or money per day or month (series, CSV) or agent (by=agent)",
  // users: the balance, the `agent` check and `by=agent`'s page of agents; ledger: the tallies; counters: the devices by
  // state and by=app's downloads and installs; devices: the expiry index; accounts: the private pool's slots;
  // subscriptions and events: the caller's own; sources and apps: by=app's source and its apps.
  data: { read: ['users', 'ledger', 'counters', 'devices', 'accounts', 'subscriptions', 'events', 'sources', 'apps'] },
} as const satisfies RouteDefinition;

export const subscriptionRoute = {
  function: 'subscription',
  methods: ['GET', 'POST'],
  path: '/api/appstore/manage/subscription',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "The caller's subscription, limits, usage and the plans on sale (GET); start the trial or buy a plan from the balance (POST)",
  data: { read: ['plans'], write: ['subscriptions', 'users', 'ledger'] },
} as const satisfies RouteDefinition;

export const userWebhookRoute = {
  function: 'user-webhook',
  methods: ['PUT', 'GET', 'DELETE'],
  path: '/api/user/webhook',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "Set (PUT), show (GET) or remove (DELETE) the caller's webhook for events",
  // users: the low-balance threshold lives on the user item.
  data: { write: ['webhooks', 'users'] },
} as const satisfies RouteDefinition;

export const userWebhookTestRoute = {
  function: 'user-webhook-test',
  methods: ['POST'],
  path: '/api/user/webhook/test',
  auth: 'bearer',
  rateLimit: 10,
  envelope: 'management',
  description: "Send a signed ping to the caller's webhook now",
  data: { read: ['webhooks'] },
} as const satisfies RouteDefinition;

export const userEventsRoute = {
  function: 'user-events',
  methods: ['GET', 'POST'],
  path: '/api/user/events',
  auth: 'bearer',
  rateLimit: 120,
  envelope: 'management',
  description: "The caller's events after a cursor, oldest first (kept 30 days)",
  data: { read: ['events'] },
} as const satisfies RouteDefinition;

/**
 * A reseller's own Apple developer accounts, on one path and one function (each function costs the one stack
 * about ten CloudFormation resources, of 500): list or show (GET), connect with an API key (POST), act on one
 * (POST with `account_id`: rotate the key, renew the certificate, pause, resume, retire).
 */
export const appleAccountsRoute = {
  function: 'apple-accounts',
  methods: ['GET', 'POST'],
  path: '/api/user/apple-accounts',
  auth: 'bearer',
  rateLimit: 30,
  envelope: 'management',
  description: "The caller's own Apple developer accounts with slots, dates and state (GET); connect one with an App Store Connect API key, or rotate its key, renew its certificate, pause, resume or retire it (POST)",
  // users: a connected account is placed in its owner's private pool; devices: a renewal gives the
  // certificates on the account their new profile and .p12.
  data: { read: ['users'], write: ['accounts', 'devices'] },
  secrets: true,
} as const satisfies RouteDefinition;

/**
 * Signing in as a person (the reseller console), on one path and one function (the stack is near
 * CloudFormation's 500 resources): sign in, see the current session (GET), sign out, list and revoke sessions,
 * the TOTP second factor, rotate the API token, accept an operator's invitation. Public as a route: sign-in
 * and invitations need no session, and the function checks the session itself for the rest; the sign-in limits
 * (per account, per IP) are the function's own, since they count failures only.
 */
export const userSessionRoute = {
  function: 'user-session',
  methods: ['GET', 'POST'],
  path: '/api/user/session',
  auth: 'none',
  rateLimit: null,
  ipLimits: [{ limit: 120, window: 'minute' }],
  envelope: 'management',
  description: 'Sign in as a person (login or e-mail, password, TOTP) for the console session cookie; the session (GET); sign out, list or revoke sessions, TOTP on or off, rotate the API token, accept an invitation (POST)',
  // users, tokens: rotating the API token; rateLimits: the sign-in limits (per account, per IP).
  data: { read: ['users'], write: ['consoleAuth', 'users', 'tokens', 'rateLimits'] },
} as const satisfies RouteDefinition;
