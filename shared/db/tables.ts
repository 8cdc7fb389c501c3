/**
 * The one list of DynamoDB tables. The CDK stack and the local bootstrap both build their tables from it,
 * and functions resolve physical names through `tableName`.
 */
import { DEVICE_RECORD_FIELDS } from '../records/device';

export type AttributeType = 'S' | 'N';

export interface KeyAttribute {
  name: string;
  type: AttributeType;
}

export interface IndexDefinition {
  name: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  /**
   * The non-key attributes the index copies (an `INCLUDE` projection); without it, every attribute (`ALL`).
   * An index that must never hold a secret (a device's `.p12`) lists what it may hold.
   */
  include?: readonly string[];
}

export interface TableDefinition {
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  indexes?: readonly IndexDefinition[];
  /** Attribute holding an epoch-seconds expiry; DynamoDB deletes expired items in the background. */
  ttlAttribute?: string;
  /** The table has a DynamoDB stream (new images) that a stream consumer of the route table reads. */
  stream?: 'NEW_IMAGE';
}

/** Key attributes by type: DynamoDB keys are strings or numbers here. */
const stringKey = (name: string) => ({ name, type: 'S' }) as const;
const numberKey = (name: string) => ({ name, type: 'N' }) as const;

export const tables = {
  tenants: { partitionKey: stringKey('tenant_id') },
  /**
   * A copy of each tenant that owns a domain, keyed by the normalized host, so the tenant of a request's Host
   * is one GetItem. Written whenever the tenant item is.
   */
  tenantHosts: { partitionKey: stringKey('host') },
  users: {
    partitionKey: stringKey('user_id'),
    indexes: [
      /**
       * Sparse: a debit or credit sets `balance_check` and the low-balance pass removes it once it has looked,
       * so the pass reads only users whose balance moved since (see shared/domain/events/balance-low.ts).
       */
      { name: 'by-balance-check', partitionKey: stringKey('balance_check') },
      /** Sparse: only agents carry `parent_id`, so a parent lists its agents (shared/domain/agents) without a scan. */
      { name: 'by-parent', partitionKey: stringKey('parent_id'), sortKey: stringKey('user_id'), include: ['tenant_id', 'name', 'balance', 'ledger_seq', 'upline', 'suspended', 'contact', 'created_at'] },
    ],
  },
  /**
   * One item per live token, keyed by the SHA-256 hash of the token: its user, tenant and expiry. A request's
   * token is one strongly consistent GetItem; rotating a token deletes the old item in the same transaction.
   */
  tokens: { partitionKey: stringKey('token_hash') },
  sources: {
    partitionKey: stringKey('source_id'),
    indexes: [
      { name: 'by-owner', partitionKey: stringKey('owner_id'), sortKey: stringKey('source_id') },
      /**
       * Sparse: only sources with link-health alerting on carry `health_shard` (one of a fixed number of
       * partitions, so the checker's reads spread out) and `health_due_at` (when the next check is due).
       */
      { name: 'by-health-due', partitionKey: stringKey('health_shard'), sortKey: numberKey('health_due_at') },
    ],
  },
  /** App items (`app#<id>`) and the guards that keep published name+version pairs unique (`published#…`). */
  apps: { partitionKey: stringKey('source_id'), sortKey: stringKey('item_key') },
  /** The last link-health probe of each published app (`app_id`), with its failure streak and alert state. */
  linkHealth: { partitionKey: stringKey('source_id'), sortKey: numberKey('app_id') },
  /** One item per certificate. `user_udid` is `<user_id>#<UDID upper-cased>` so UDIDs match case-insensitively. */
  devices: {
    partitionKey: stringKey('kid'),
    indexes: [
      { name: 'by-user-udid', partitionKey: stringKey('user_udid'), sortKey: numberKey('addtime') },
      /** Sparse: only certificates issued through an Apple account carry `issued_account` (the revocation sweep). */
      { name: 'by-account', partitionKey: stringKey('issued_account'), sortKey: numberKey('addtime') },
      /**
       * A user's certificates, newest first (`/api/device/list`). It copies the record without the `.p12` and
       * the profile, so a list page reads and returns neither.
       */
      {
        name: 'by-owner',
        partitionKey: stringKey('user_id'),
        sortKey: numberKey('addtime'),
        include: DEVICE_RECORD_FIELDS.filter((field) => field !== 'kid' && field !== 'user_id' && field !== 'addtime'),
      },
      /**
       * A user's certificates by membership expiry (`ytime`), soonest first: the dashboard's "expiring within 7
       * days" is one bounded Query. Keys and the few fields a reminder names only.
       */
      { name: 'by-owner-expiry', partitionKey: stringKey('user_id'), sortKey: numberKey('ytime'), include: ['id', 'udid', 'zt', 'enabled', 'tenant_id'] },
      /**
       * Every certificate of a UDID, whoever owns it (the customer's own page). Keyed by the stored `udid`
       * itself, so existing items need no backfill; like `by-owner`, never the `.p12` or the profile.
       */
      {
        name: 'by-udid',
        partitionKey: { name: 'udid', type: 'S' },
        sortKey: { name: 'addtime', type: 'N' },
        include: [...DEVICE_RECORD_FIELDS.filter((field) => field !== 'kid' && field !== 'udid' && field !== 'addtime'), 'warranty_from'],
      },
    ],
  },
  /** Apple Developer accounts; `pool_key` is `public#<tenant>` or `private#<user>`, lowest `weight` picked first. */
  accounts: { partitionKey: stringKey('account_id'), indexes: [{ name: 'by-pool', partitionKey: stringKey('pool_key'), sortKey: numberKey('weight') }] },
  /** Review-mode adds; `queue` is set only while pending, so the worker's index holds only live work. */
  reservations: { partitionKey: stringKey('reservation_id'), indexes: [{ name: 'by-next-check', partitionKey: stringKey('queue'), sortKey: numberKey('next_check_at') }] },
  /** Activation codes, keyed by the code itself. */
  codes: { partitionKey: stringKey('code') },
  /** Prices in cents: `scope` is `tenant#<id>` or `user#<id>` (personal), `item` is `<mode>#<tier>#<class>`. */
  prices: { partitionKey: stringKey('scope'), sortKey: stringKey('item') },
  /** Short-lived locks that serialize concurrent adds of one UDID by one user. */
  addLocks: { partitionKey: stringKey('lock_key'), ttlAttribute: 'expires_at' },
  /**
   * Payments held by adds in flight: taken before Apple is called, then completed by the add's final
   * transaction or released (refunded). `queue` is set only while held, so the sparse index lists exactly the
   * holds a crashed add left behind, oldest first, for the sweep that refunds them.
   */
  paymentHolds: { partitionKey: stringKey('hold_id'), indexes: [{ name: 'by-queue', partitionKey: stringKey('queue'), sortKey: numberKey('created_at') }], ttlAttribute: 'expires_at' },
  /**
   * One item per UDID registered (or maybe registered) on an account, `<account>#<class>#<UDID>`: which
   * certificate counts the one slot Apple spends on it (`owner_kid`, set once by a conditional write), and the
   * slots adds kept while not knowing whether Apple registered it (`slots`; `queue` is set while any are kept,
   * for the worker that settles them). shared/db/repositories/registration-slot-repository.ts.
   */
  registrations: { partitionKey: stringKey('registration_id'), indexes: [{ name: 'by-queue', partitionKey: stringKey('queue'), sortKey: numberKey('created_at') }], ttlAttribute: 'expires_at' },
  /**
   * What protects each source, one partition per source: unlock codes (`code#<CODE>`), the UDIDs that
   * unlocked it (`unlock#<UDID>`), the block list (`block#<UDID>`) and the misuse monitor
   * (`monitor#<UDID>#<role>`). UDIDs are upper-cased.
   */
  sourceProtection: { partitionKey: stringKey('source_id'), sortKey: stringKey('item_key') },
  /** Monotonic counters for the numeric ids the contract exposes (device `id`). */
  counters: { partitionKey: stringKey('counter') },
  /**
   * Leases that keep two runs of one scheduled job from overlapping: one item per job (`job#<function>`),
   * held by the run's owner id until it releases it or `expires_at` passes (a run killed at its timeout).
   */
  leases: { partitionKey: stringKey('lease_key'), ttlAttribute: 'expires_at' },
  /** Per-minute request counters: `<route>#<owner>#<minute>`. */
  rateLimits: { partitionKey: stringKey('bucket'), ttlAttribute: 'expires_at' },
  /**
   * Every change of a user's balance or use of their activation codes, one immutable entry each, keyed by the
   * user's ledger sequence (`seq`, 1, 2, …): written in the transaction that makes the change, on the
   * condition that the user's sequence is still the one the entry follows (shared/domain/ledger).
   */
  ledger: { partitionKey: stringKey('user_id'), sortKey: numberKey('seq') },
  /** The plans a tenant sells (`plan_id`), each with its price, days and limits; a retired plan is sold no more. */
  plans: { partitionKey: stringKey('tenant_id'), sortKey: stringKey('plan_id') },
  /**
   * Per user: the running subscription (`current`: plan, limits, expiry, the trial's use, the count of
   * sources held against the plan) and one record per purchase, trial or extension (`purchase#<time>#<id>`),
   * written in the same transaction as the change it records.
   */
  subscriptions: {
    partitionKey: stringKey('user_id'),
    sortKey: stringKey('item_key'),
    indexes: [
      /**
       * Sparse: a running subscription carries `notice_shard` from each change until its `subscription.expired`
       * event is written, so the notice pass reads only subscriptions ending soon or just ended.
       */
      { name: 'by-notice', partitionKey: stringKey('notice_shard'), sortKey: numberKey('expires_at') },
    ],
  },
  /**
   * Deleted sources whose apps, protection and health items are still being removed (`source_id`). The
   * source item is gone first, so nothing of it is visible; the purge job finishes what a delete left.
   */
  sourcePurges: { partitionKey: stringKey('source_id') },
  /**
   * Events (the outbox and the feed): one partition per user, `event_key` = `<created>_<id>` so a page is one
   * Query, oldest first. Written in the transaction of the change each reports; the stream triggers the
   * dispatcher. Sparse: `delivery_shard` + `delivery_due_at` only while a webhook delivery is owed.
   */
  events: {
    partitionKey: stringKey('user_id'),
    sortKey: stringKey('event_key'),
    indexes: [{ name: 'by-delivery-due', partitionKey: stringKey('delivery_shard'), sortKey: numberKey('delivery_due_at') }],
    ttlAttribute: 'expires_at',
    stream: 'NEW_IMAGE',
  },
  /** Each user's webhook: URL, subscribed types, signing secret, and the state of its deliveries. */
  webhooks: { partitionKey: stringKey('user_id') },
  /**
   * UDID capture (Apple's Profile Service), one partition per scope: `tenant#<id>` holds the tenant's signing
   * keys (`keys`), its profile signer (`signer`), the challenges already used (`challenge#<nonce>`, deleted
   * by TTL once expired) and the captures (`capture#<time>#<id>`); `anchors` holds the deployment's trust
   * anchors (`anchor#<sha256>`). Captures carry `owner_key` (`<tenant>#<user>`) for the reseller's list.
   */
  udidCapture: { partitionKey: stringKey('scope'), sortKey: stringKey('item_key'), indexes: [{ name: 'by-owner', partitionKey: stringKey('owner_key'), sortKey: stringKey('captured_key') }], ttlAttribute: 'expires_at' },
  /**
   * Apps whose IPA is too large to read within a request: an item exists only while the inspection is
   * pending, so the background inspector's scan reads live work only.
   */
  ipaInspections: { partitionKey: stringKey('source_id'), sortKey: numberKey('app_id') },
  /**
   * Which certificates an owner disabled, per UDID: `owner_udid` is `<user_id>#<UDID upper-cased>`, `kids` the
   * disabled ones (a string set, absent when none). Written in the same transaction as the certificate's
   * `enabled`, so the feed and the gate learn "is this UDID disabled" from one key read.
   */
  disabledDevices: { partitionKey: stringKey('owner_udid') },
  /**
   * The published apps of each source, kept where one key read gets them beside the source: one item per
   * source, one attribute `a<app id>` per published app (its stored fields), maintained in the same
   * transactions that publish, unpublish or edit a published app. `complete` says the item lists every
   * published app; without it (an operator import, a source from before, a catalogue too large for one item)
   * the feed reads the apps themselves.
   */
  sourceFeeds: { partitionKey: stringKey('source_id') },
  /**
   * Signing in as a person (the reseller console), one item per key: a live session (`session#<SHA-256 of the
   * cookie value>`: the cookie itself is never stored), a login name or e-mail claimed on a tenant
   * (`login#<tenant>#<lower-cased login>` → user, unique by its key), a user's credentials
   * (`credential#<user_id>`: the scrypt hash, the TOTP secret and the last TOTP step used) and a one-time
   * invitation (`invite#<SHA-256 of its token>`). Sessions carry `session_user` for the user's list (sparse
   * index); sessions and invitations leave by TTL once `expires_at` passes (and are refused before that by
   * the code, which compares times itself).
   */
  consoleAuth: {
    partitionKey: stringKey('item_key'),
    indexes: [{ name: 'by-session-user', partitionKey: stringKey('session_user'), sortKey: numberKey('created_at') }],
    ttlAttribute: 'expires_at',
  },
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof tables;

export const tableKeys = Object.keys(tables) as TableKey[];

// A table's physical name (tableName, tableEnvVar, tableSuffix) is in table-names.ts: every function resolves
// names, and none needs this list.
