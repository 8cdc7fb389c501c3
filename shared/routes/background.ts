/** The functions no route runs: scheduled jobs, stream consumers and the API key authorizer. */
import type { AuthorizerDefinition, ScheduledJobDefinition, StreamConsumerDefinition } from './definitions';

export const scheduledJobs = [
  {
    function: 'reservation-worker',
    everyMinutes: 2,
    description: 'Advance review-mode reservations: issue when Apple enables the device, fail and refund otherwise; then the low-balance and subscription-end events; then the running certificate renewals of Apple accounts',
    // accounts and counters: a stale hold's slot given back, or its registration kept as a failed certificate;
    // accounts, devices and events: a certificate renewal's new profiles, its progress and its end.
    data: { read: ['accounts', 'tenants'], write: ['reservations', 'devices', 'users', 'codes', 'paymentHolds', 'registrations', 'ledger', 'events', 'subscriptions', 'accounts', 'counters'] },
    secrets: true,
  },
  {
    function: 'revocation-sweep',
    everyMinutes: 60,
    description: "Mark certificates of accounts whose distribution certificate Apple revoked, or whose membership ended",
    // counters: each owner's devices by state move with the certificates' status.
    data: { read: ['tenants'], write: ['accounts', 'devices', 'events', 'counters'] },
    secrets: true,
  },
  {
    function: 'link-health-checker',
    everyMinutes: 5,
    description: 'Probe the download links of sources whose link-health alerting is due; send failing and recovery alerts',
    data: { read: ['apps'], write: ['sources', 'linkHealth'] },
  },
  {
    function: 'source-purge',
    everyMinutes: 5,
    description: 'Finish removing the apps, unlock codes, block list and health records of deleted sources',
    data: { write: ['sourcePurges', 'apps', 'sourceProtection', 'linkHealth'] },
  },
  {
    function: 'event-retry',
    everyMinutes: 1,
    description: 'Retry webhook deliveries that are due (the stream consumer makes the first attempts)',
    data: { read: ['webhooks'], write: ['events', 'webhooks'] },
  },
  {
    function: 'ipa-inspector',
    everyMinutes: 5,
    description: 'Read the IPAs too large or too slow to inspect within a request (publish answers ipa_pending meanwhile)',
    data: { write: ['apps', 'ipaInspections'] },
    ephemeralStorageMiB: 5120,
  },
] as const satisfies readonly ScheduledJobDefinition[];

export const streamConsumers = [
  {
    function: 'event-dispatcher',
    table: 'events',
    description: 'Deliver each new event to its user’s webhook (signed, at least once)',
    batchSize: 10,
    retryAttempts: 3,
    data: { read: ['webhooks'], write: ['events', 'webhooks'] },
  },
] as const satisfies readonly StreamConsumerDefinition[];

/**
 * Supplies the usage plan's API key for a request: the key of the tenant that owns the `Host` (any other host
 * gets the default tenant's). The answer depends on the host alone, so it is cached per host for an hour and
 * the authorizer runs about once per host per hour, not per request. It authenticates nobody: the functions do.
 */
export const apiKeyAuthorizer = {
  function: 'tenant-api-key',
  description: "Supplies the Host's tenant API key to the usage plan",
  identityHeaders: ['Host'],
  cacheSeconds: 3600,
  data: { read: ['tenants', 'tenantHosts'] },
} as const satisfies AuthorizerDefinition;

export const authorizers = [apiKeyAuthorizer] as const satisfies readonly AuthorizerDefinition[];
