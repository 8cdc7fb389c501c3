/**
 * Apple accounts. Slots are counted per class on the account item (`free_<class>`); taking, giving back and
 * spending them is the slot rule's, in registration-slot-repository.ts (the one owner of those writes).
 *
 * Exports: `putAccount`, `getAccount`, `listPool` (a pool's active accounts, lowest weight first, optionally
 * only those with a free slot of a class), `listOwnedAccounts`, `listAllAccounts`, `setCustomerP12`,
 * `setAccountMode`, `markAccountRevoked`, `changeAccount`, the account alerts' parts, and `freeAttr` (the
 * count's attribute name).
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { queryAll, scanAll } from '../paging';
import { tableName } from '../table-names';
import { APPLE_DEVICES_PER_CLASS, poolKey, type Account, type AccountAlert, type AccountMode, type AccountRenewal, type DeviceClass } from '../../records/account';
import type { SealedSecret } from '../../secrets/envelope-encryption';
import { itemUpdate, updatePart } from '../item-update';
import type { TransactionPart } from '../transactions';

interface AccountItem {
  account_id: string;
  pool_key: string;
  pool: Account['pool'];
  tenant_id: string;
  owner_user_id: string;
  mode: AccountMode;
  weight: number;
  tiers: number[];
  free_iphone: number;
  free_ipad: number;
  free_mac: number;
  expires_at: number;
  status: Account['status'];
  paused?: boolean;
  connected?: boolean;
  slot_limit?: number;
  certificate_expires_at?: number;
  alerts?: AccountAlert[];
  simulated: boolean;
  team_id: string;
  base_url: string;
  issuer_id: string;
  key_id: string;
  certificate_id: string;
  bundle_id_id: string;
  secrets: SealedSecret;
  customer_p12?: Record<string, SealedSecret>;
  created_at: number;
  renewal?: RenewalItem;
}

/** `AccountRenewal` as the item's `renewal` map holds it. */
interface RenewalItem {
  renewal_id: string;
  state: AccountRenewal['state'];
  started_at: number;
  finished_at?: number;
  total: number;
  done: number;
  skipped: number;
  error?: string;
  signing_key?: SealedSecret;
  certificate_id?: string;
  certificate_expires_at?: number;
  identity?: SealedSecret;
  customer_p12?: Record<string, SealedSecret>;
  device_p12_key?: string;
  switched_at?: number;
  previous_certificate_id?: string;
  previous_certificate_expires_at?: number;
}

const RENEWAL_FIELDS: Record<keyof AccountRenewal, keyof RenewalItem> = {
  renewalId: 'renewal_id',
  state: 'state',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
  total: 'total',
  done: 'done',
  skipped: 'skipped',
  error: 'error',
  signingKey: 'signing_key',
  certificateId: 'certificate_id',
  certificateExpiresAt: 'certificate_expires_at',
  identity: 'identity',
  customerP12: 'customer_p12',
  deviceP12Key: 'device_p12_key',
  switchedAt: 'switched_at',
  previousCertificateId: 'previous_certificate_id',
  previousCertificateExpiresAt: 'previous_certificate_expires_at',
};

function renewalItem(r: AccountRenewal): RenewalItem {
  const item: Record<string, unknown> = {};
  for (const [field, attribute] of Object.entries(RENEWAL_FIELDS)) {
    const value = r[field as keyof AccountRenewal];
    if (value !== undefined) item[attribute] = value;
  }
  return item as unknown as RenewalItem;
}

function renewalOf(i: RenewalItem): AccountRenewal {
  const renewal: Record<string, unknown> = {};
  for (const [field, attribute] of Object.entries(RENEWAL_FIELDS)) if (i[attribute] !== undefined) renewal[field] = i[attribute];
  for (const count of ['startedAt', 'finishedAt', 'total', 'done', 'skipped', 'certificateExpiresAt', 'switchedAt', 'previousCertificateExpiresAt']) if (renewal[count] !== undefined) renewal[count] = Number(renewal[count]);
  return renewal as unknown as AccountRenewal;
}

/** The account item's count of free slots of a class (registration-slot-repository.ts takes and gives them). */
export const freeAttr = (deviceClass: DeviceClass) => `free_${deviceClass}` as const;

function toItem(a: Account): AccountItem {
  return {
    account_id: a.accountId,
    pool_key: poolKey(a.pool, { tenantId: a.tenantId, userId: a.ownerUserId }),
    pool: a.pool,
    tenant_id: a.tenantId,
    owner_user_id: a.ownerUserId,
    mode: a.mode,
    weight: a.weight,
    tiers: a.tiers,
    free_iphone: a.free.iphone,
    free_ipad: a.free.ipad,
    free_mac: a.free.mac,
    expires_at: a.expiresAt,
    status: a.status,
    paused: a.paused,
    connected: a.connected,
    slot_limit: a.slotLimit,
    certificate_expires_at: a.certificateExpiresAt,
    alerts: a.alerts,
    simulated: a.simulated,
    team_id: a.teamId,
    base_url: a.baseUrl,
    issuer_id: a.issuerId,
    key_id: a.keyId,
    certificate_id: a.certificateId,
    bundle_id_id: a.bundleIdId,
    secrets: a.secrets,
    customer_p12: a.customerP12,
    created_at: a.createdAt,
    ...(a.renewal ? { renewal: renewalItem(a.renewal) } : {}),
  };
}

function fromItem(i: AccountItem): Account {
  return {
    accountId: i.account_id,
    pool: i.pool,
    tenantId: i.tenant_id,
    ownerUserId: i.owner_user_id,
    mode: i.mode,
    weight: i.weight,
    tiers: i.tiers.map(Number),
    free: { iphone: i.free_iphone, ipad: i.free_ipad, mac: i.free_mac },
    expiresAt: i.expires_at,
    status: i.status,
    paused: i.paused ?? false,
    connected: i.connected ?? false,
    slotLimit: i.slot_limit ?? APPLE_DEVICES_PER_CLASS,
    certificateExpiresAt: i.certificate_expires_at ?? 0,
    alerts: i.alerts ?? [],
    simulated: i.simulated,
    teamId: i.team_id,
    baseUrl: i.base_url,
    issuerId: i.issuer_id,
    keyId: i.key_id,
    certificateId: i.certificate_id,
    bundleIdId: i.bundle_id_id,
    secrets: i.secrets,
    customerP12: i.customer_p12 ?? {},
    createdAt: i.created_at,
    ...(i.renewal ? { renewal: renewalOf(i.renewal) } : {}),
  };
}

export async function putAccount(account: Account): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName('accounts'), Item: toItem(account), ConditionExpression: 'attribute_not_exists(account_id)' }));
}

export async function getAccount(accountId: string): Promise<Account | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('accounts'), Key: { account_id: accountId }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item as AccountItem) : undefined;
}

/** A pool's active accounts, lowest weight first; with `withFreeSlot`, only those with a slot of that class left. */
export async function listPool(key: string, withFreeSlot?: DeviceClass): Promise<Account[]> {
  const items = await queryAll({
    TableName: tableName('accounts'),
    IndexName: 'by-pool',
    KeyConditionExpression: 'pool_key = :k',
    // A paused account sells nothing (its owner's choice); accounts from before pausing have no attribute.
    FilterExpression: `#status = :active AND (attribute_not_exists(paused) OR paused = :no)${withFreeSlot ? ` AND ${freeAttr(withFreeSlot)} > :zero` : ''}`,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':k': key, ':active': 'active', ':no': false, ...(withFreeSlot ? { ':zero': 0 } : {}) },
  });
  return items.map((i) => fromItem(i as AccountItem));
}

/** Every account of a user's private pool, whatever its state, oldest first. */
export async function listOwnedAccounts(userId: string): Promise<Account[]> {
  const items = await queryAll({
    TableName: tableName('accounts'),
    IndexName: 'by-pool',
    KeyConditionExpression: 'pool_key = :k',
    ExpressionAttributeValues: { ':k': poolKey('private', { tenantId: '', userId }) },
  });
  return items.map((i) => fromItem(i as AccountItem)).sort((a, b) => a.createdAt - b.createdAt);
}

/** Every account (operators have tens, not millions: a scan is the honest tool for the sweep and the CLI). */
export async function listAllAccounts(): Promise<Account[]> {
  return (await scanAll({ TableName: tableName('accounts') })).map((i) => fromItem(i as AccountItem));
}

/** Replaces the sealed customer `.p12` copies of an account (operator side: a password changed). */
export async function setCustomerP12(accountId: string, copies: Record<string, SealedSecret>): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('accounts'),
      Key: { account_id: accountId },
      UpdateExpression: 'SET customer_p12 = :c',
      ConditionExpression: 'attribute_exists(account_id)',
      ExpressionAttributeValues: { ':c': copies },
    }),
  );
}

export async function setAccountMode(accountId: string, mode: AccountMode): Promise<void> {
  await documentClient().send(
    new UpdateCommand({ TableName: tableName('accounts'), Key: { account_id: accountId }, UpdateExpression: 'SET #mode = :m', ExpressionAttributeNames: { '#mode': 'mode' }, ExpressionAttributeValues: { ':m': mode } }),
  );
}

/** Returns false when the account was already revoked. */
export async function markAccountRevoked(accountId: string, at: number): Promise<boolean> {
  const out = await updateIf(itemUpdate('accounts', { account_id: accountId }, {
    change: 'SET #status = :revoked, revoked_at = :at',
    when: 'attribute_exists(account_id) AND #status <> :revoked',
    values: { ':revoked': 'revoked', ':at': at },
    names: { '#status': 'status' },
  }));
  return out.written;
}

/** What the owner may change on a connected account, written only while it is in a state that allows it. */
export interface AccountChange {
  paused?: boolean;
  status?: Account['status'];
  issuerId?: string;
  keyId?: string;
  certificateId?: string;
  certificateExpiresAt?: number;
  expiresAt?: number;
  secrets?: SealedSecret;
  customerP12?: Record<string, SealedSecret>;
  alerts?: AccountAlert[];
}

const CHANGE_ATTRIBUTES: Record<keyof AccountChange, string> = {
  paused: 'paused',
  status: 'status',
  issuerId: 'issuer_id',
  keyId: 'key_id',
  certificateId: 'certificate_id',
  certificateExpiresAt: 'certificate_expires_at',
  expiresAt: 'expires_at',
  secrets: 'secrets',
  customerP12: 'customer_p12',
  alerts: 'alerts',
};

/**
 * Applies `change` when the account is in one of `inStatus` (and, with `certificateId`, still has that
 * certificate: a renewal that raced another does not overwrite it). Returns false when the condition failed.
 */
export async function changeAccount(accountId: string, change: AccountChange, when: { inStatus: readonly Account['status'][]; certificateId?: string }): Promise<boolean> {
  const entries = Object.entries(change).filter(([, v]) => v !== undefined) as [keyof AccountChange, unknown][];
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {};
  const sets = entries.map(([field, value], i) => {
    names[`#c${i}`] = CHANGE_ATTRIBUTES[field];
    values[`:c${i}`] = value;
    return `#c${i} = :c${i}`;
  });
  const allowed = when.inStatus.map((status, i) => {
    values[`:s${i}`] = status;
    return `:s${i}`;
  });
  let condition = `attribute_exists(account_id) AND #status IN (${allowed.join(', ')})`;
  if (when.certificateId !== undefined) {
    names['#cert'] = 'certificate_id';
    values[':cert'] = when.certificateId;
    condition += ' AND #cert = :cert';
  }
  const out = await updateIf(itemUpdate('accounts', { account_id: accountId }, { change: `SET ${sets.join(', ')}`, when: condition, values, names }));
  return out.written;
}

/**
 * Records an alert on the account — once: the part's condition fails when the alert is already there, so its
 * event (the other part of the transaction) is written once per appearance. With `status`, the account
 * moves from `status.from` to `status.to` in the same write.
 */
export function accountAlertPart(accountId: string, alert: AccountAlert, status?: { from: Account['status']; to: Account['status'] }): TransactionPart {
  return updatePart('accounts', { account_id: accountId }, {
    change: `SET alerts = list_append(if_not_exists(alerts, :none), :alert)${status ? ', #status = :to' : ''}`,
    when: `attribute_exists(account_id) AND NOT contains(alerts, :one)${status ? ' AND #status = :from' : ''}`,
    values: { ':none': [], ':alert': [alert], ':one': alert, ...(status ? { ':from': status.from, ':to': status.to } : {}) },
    ...(status ? { names: { '#status': 'status' } } : {}),
  });
}

/** Takes alerts the check no longer finds off the account (and, with `status`, moves it back). */
export async function clearAccountAlerts(account: Account, gone: readonly AccountAlert[], status?: { from: Account['status']; to: Account['status'] }): Promise<boolean> {
  const kept = account.alerts.filter((a) => !gone.includes(a));
  const out = await updateIf(itemUpdate('accounts', { account_id: account.accountId }, {
    change: `SET alerts = :kept${status ? ', #status = :to' : ''}`,
    when: `attribute_exists(account_id) AND #status = :from`,
    values: { ':kept': kept, ':from': status?.from ?? account.status, ...(status ? { ':to': status.to } : {}) },
    names: { '#status': 'status' },
  }));
  return out.written;
}

/**
 * Starts a renewal: only while the account is in one of `inStatus` and no other renewal is running (two
 * renewals at once would each make a certificate and fight over the devices). False when refused.
 */
export async function beginRenewal(accountId: string, renewal: AccountRenewal, inStatus: readonly Account['status'][]): Promise<boolean> {
  const values: Record<string, unknown> = { ':r': renewalItem(renewal), ':running': 'running' };
  const allowed = inStatus.map((status, i) => {
    values[`:s${i}`] = status;
    return `:s${i}`;
  });
  const out = await updateIf(itemUpdate('accounts', { account_id: accountId }, {
    change: 'SET renewal = :r',
    when: `attribute_exists(account_id) AND #status IN (${allowed.join(', ')}) AND (attribute_not_exists(renewal) OR renewal.#state <> :running)`,
    values,
    names: { '#status': 'status', '#state': 'state' },
  }));
  return out.written;
}

/** Puts back the renewal a refused start replaced (or none), while the refused one is still there. */
export async function undoRenewal(accountId: string, renewalId: string, previous: AccountRenewal | undefined): Promise<void> {
  await updateIf(itemUpdate('accounts', { account_id: accountId }, {
    change: previous ? 'SET renewal = :prev' : 'REMOVE renewal',
    when: 'renewal.renewal_id = :id',
    values: { ':id': renewalId, ...(previous ? { ':prev': renewalItem(previous) } : {}) },
  }));
}

function renewalSets(fields: Partial<AccountRenewal>, values: Record<string, unknown>, names: Record<string, string>): string[] {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([field, value], i) => {
      names[`#r${i}`] = RENEWAL_FIELDS[field as keyof AccountRenewal];
      values[`:r${i}`] = value;
      return `renewal.#r${i} = :r${i}`;
    });
}

/** Sets fields of the running renewal `renewalId`; false when it is not the running one any more. */
export async function updateRenewal(accountId: string, renewalId: string, fields: Partial<AccountRenewal>): Promise<boolean> {
  const values: Record<string, unknown> = { ':id': renewalId, ':running': 'running' };
  const names: Record<string, string> = { '#state': 'state' };
  const sets = renewalSets(fields, values, names);
  const out = await updateIf(itemUpdate('accounts', { account_id: accountId }, { change: `SET ${sets.join(', ')}`, when: 'renewal.renewal_id = :id AND renewal.#state = :running', values, names }));
  return out.written;
}

/** One more device finished (`skipped`: left on the previous certificate), in the device's own transaction. */
export function renewalProgressPart(accountId: string, renewalId: string, skipped: boolean): TransactionPart {
  return updatePart('accounts', { account_id: accountId }, {
    change: `SET renewal.done = renewal.done + :one${skipped ? ', renewal.skipped = renewal.skipped + :one' : ''}`,
    when: 'renewal.renewal_id = :id AND renewal.#state = :running',
    values: { ':one': 1, ':id': renewalId, ':running': 'running' },
    names: { '#state': 'state' },
  });
}

/**
 * The account moves to the renewal's certificate (new adds are signed with it): once, while the renewal runs
 * and the account is in one of `inStatus`.
 */
export async function switchToRenewedCertificate(
  accountId: string,
  renewalId: string,
  change: Required<Pick<AccountChange, 'certificateId' | 'certificateExpiresAt' | 'secrets' | 'customerP12' | 'alerts' | 'status'>>,
  previous: { certificateId: string; certificateExpiresAt: number },
  at: number,
  inStatus: readonly Account['status'][],
): Promise<boolean> {
  const values: Record<string, unknown> = {
    ':prev': previous.certificateId,
    ':prevExp': previous.certificateExpiresAt,
    ':id': renewalId,
    ':running': 'running',
    ':cert': change.certificateId,
    ':certExp': change.certificateExpiresAt,
    ':secrets': change.secrets,
    ':p12': change.customerP12,
    ':alerts': change.alerts,
    ':to': change.status,
    ':at': at,
  };
  const allowed = inStatus.map((status, i) => {
    values[`:s${i}`] = status;
    return `:s${i}`;
  });
  const out = await updateIf(itemUpdate('accounts', { account_id: accountId }, {
    change: 'SET certificate_id = :cert, certificate_expires_at = :certExp, secrets = :secrets, customer_p12 = :p12, alerts = :alerts, #status = :to, renewal.switched_at = :at, renewal.previous_certificate_id = :prev, renewal.previous_certificate_expires_at = :prevExp',
    when: `renewal.renewal_id = :id AND renewal.#state = :running AND attribute_not_exists(renewal.switched_at) AND #status IN (${allowed.join(', ')}) AND certificate_id = :prev`,
    values,
    names: { '#status': 'status', '#state': 'state' },
  }));
  return out.written;
}

/** Ends the running renewal (`done` or `failed`), dropping the secrets it kept, as part of a transaction with its event. */
export function finishRenewalPart(accountId: string, renewalId: string, state: 'done' | 'failed', at: number, error?: string): TransactionPart {
  return updatePart('accounts', { account_id: accountId }, {
    change: `SET renewal.#state = :to, renewal.finished_at = :at${error ? ', renewal.#error = :error' : ''} REMOVE renewal.signing_key, renewal.#identity, renewal.customer_p12`,
    when: 'renewal.renewal_id = :id AND renewal.#state = :running',
    values: { ':to': state, ':at': at, ':id': renewalId, ':running': 'running', ...(error ? { ':error': error } : {}) },
    names: { '#state': 'state', '#identity': 'identity', ...(error ? { '#error': 'error' } : {}) },
  });
}

/** The accounts with a renewal running (a scan: accounts are tens, and the worker asks every few minutes). */
export async function listRenewingAccounts(): Promise<Account[]> {
  const items = await scanAll({
    TableName: tableName('accounts'),
    FilterExpression: 'renewal.#state = :running',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':running': 'running' },
  });
  return items.map((i) => fromItem(i as AccountItem));
}
