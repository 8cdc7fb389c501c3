/**
 * AWS's published on-demand list prices that `npm run cost` uses, written once, with the date they were read
 * and the region. Update them here (and the date) when AWS changes a price; nothing else holds a price.
 * Free tiers are left out on purpose: the figures are what a reseller pays once past them.
 *
 * Sources (the public pricing pages): aws.amazon.com/lambda/pricing, aws.amazon.com/api-gateway/pricing,
 * aws.amazon.com/dynamodb/pricing/on-demand, aws.amazon.com/kms/pricing, aws.amazon.com/cloudwatch/pricing.
 */
export const PRICES = {
  /** When the prices below were read from AWS's pages, and for which region. */
  asOf: '2026-11-27',
  region: 'us-east-1 (US East, N. Virginia)',
  lambda: {
    /** arm64 (Graviton), first 7.5 billion GB-seconds a month. */
    perGbSecond: 0.0000133334,
    perMillionRequests: 0.2,
  },
  apiGateway: {
    /** REST API, first 333 million requests a month. */
    perMillionRequests: 3.5,
    /** Stage cache, 0.5 GB (the size the stack creates: infra/cdk/feed-cache.ts), per hour while it exists. */
    cachePerHourHalfGb: 0.02,
  },
  dynamoDb: {
    /** On-demand, standard table class (the prices since AWS halved them on 2024-11-01). */
    perMillionReadRequestUnits: 0.125,
    perMillionWriteRequestUnits: 0.625,
    /** Storage per GB-month beyond the first 25 GB. */
    storagePerGbMonth: 0.25,
  },
  kms: {
    /** One customer managed key (the account secrets' key), per month. */
    perKeyMonth: 1,
    perTenThousandRequests: 0.03,
  },
  cloudWatch: {
    /** Logs ingested (standard class), per GB. */
    logsPerGbIngested: 0.5,
    /** Logs stored, per GB-month (compressed size; taken here as the ingested size, an upper bound). */
    logsPerGbMonthStored: 0.03,
  },
} as const;

/**
 * What a reseller weighing this product against a panel on a small server would pay for the server: a basic
 * 2 GB virtual server's list price per month at the common hosts on the date above (DigitalOcean's basic
 * droplet, Vultr's and Linode's 2 GB plans are $10–12; Hetzner's smallest is about $5). Backups, a managed
 * database and the admin's time are not in it.
 */
export const SMALL_SERVER = { monthly: 12, description: 'a basic 2 GB virtual server (DigitalOcean, Vultr or Linode list price)' } as const;

export type Prices = typeof PRICES;
