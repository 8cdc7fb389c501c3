/**
 * An Apple Developer account: the team the platform registers devices on.
 *
 * Exports: `Account` and its enums, `AccountSecrets` (what is sealed at rest), `poolKey` (the index key of a
 * pool), `accountView` (what the operator CLI may print: never a secret), `DEVICE_CLASSES`.
 */
import type { SealedSecret } from '../secrets/envelope-encryption';

export const ACCOUNT_MODES = ['instant', 'review'] as const;
export type AccountMode = (typeof ACCOUNT_MODES)[number];

export const POOLS = ['public', 'private'] as const;
export type PoolKind = (typeof POOLS)[number];

/** Apple counts 100 devices per class per membership year. */
export const DEVICE_CLASSES = ['iphone', 'ipad', 'mac'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];
export const APPLE_DEVICES_PER_CLASS = 100;

/**
 * active: sells; failing: Apple refuses its API key (no add uses it until a new key is given); revoked: Apple
 * revoked its distribution certificate; retired: its owner took it out of service (its certificates stay valid
 * until they expire).
 */
export const ACCOUNT_STATUSES = ['active', 'failing', 'revoked', 'retired'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** What the account check found that its owner should act on; each is announced once, when it appears. */
export const ACCOUNT_ALERTS = ['key_rejected', 'certificate_revoked', 'certificate_expiring', 'slots_low'] as const;
export type AccountAlert = (typeof ACCOUNT_ALERTS)[number];

/** A class with this many free slots or fewer is near its limit. */
export const SLOTS_LOW_AT = 10;
/** A distribution certificate expiring within this many days is announced. */
export const CERTIFICATE_NOTICE_DAYS = 30;

export interface Account {
  accountId: string;
  pool: PoolKind;
  tenantId: string;
  /** The user whose private pool holds the account; empty for the public pool. */
  ownerUserId: string;
  mode: AccountMode;
  /** Lower weights are used first. */
  weight: number;
  /** Warranty tiers the account may be sold with. */
  tiers: number[];
  /** Device slots left per class: reserved before calling Apple, given back when Apple did not use them. */
  free: Record<DeviceClass, number>;
  /**
   * When the membership renews (its current year ends: Apple lets the team reset its device list), epoch
   * seconds; 0 when unknown. Apple's API does not expose it: the owner or the operator gives it.
   */
  expiresAt: number;
  status: AccountStatus;
  /** The owner paused selling on it: adds pass it by; its certificates are untouched. */
  paused: boolean;
  /** Connected by its owner with an API key (the service made its certificate), not added by the operator. */
  connected: boolean;
  /** Slots per class of a membership year (Apple: 100): free + used. */
  slotLimit: number;
  /** When the distribution certificate expires, epoch seconds; 0 when unknown. */
  certificateExpiresAt: number;
  /** What the last account check found, announced once each. */
  alerts: AccountAlert[];
  /** A team of the App Store Connect simulator rather than a real Apple team. */
  simulated: boolean;
  teamId: string;
  /** App Store Connect base URL: Apple's for real teams, the simulator's for simulated ones. */
  baseUrl: string;
  issuerId: string;
  keyId: string;
  /** App Store Connect id of the distribution certificate. */
  certificateId: string;
  /** App Store Connect id of the bundle id the ad hoc profiles are made for. */
  bundleIdId: string;
  secrets: SealedSecret;
  /**
   * The `.p12` customers receive — the account's identity re-exported under the tenant's p12 password — sealed,
   * keyed by `p12PasswordKey(password)`. Made when the account is added and when the tenant's password changes
   * (the previous password's copy is kept while running functions may still hold the old setting), so an add
   * never runs PKCS#12 code.
   */
  customerP12: Record<string, SealedSecret>;
  createdAt: number;
  /** The latest certificate renewal (running, or how the last one ended); absent before the first. */
  renewal?: AccountRenewal;
}

export const RENEWAL_STATES = ['running', 'done', 'failed'] as const;
export type RenewalState = (typeof RENEWAL_STATES)[number];

/**
 * A certificate renewal, kept on the account while it runs and after: the request makes the new certificate,
 * the reservation worker's pass gives each device on the account a new profile and `.p12` and then switches the
 * account to the new certificate. What it needs between passes (the new identity) is sealed here and dropped
 * when it ends.
 */
export interface AccountRenewal {
  renewalId: string;
  state: RenewalState;
  startedAt: number;
  finishedAt?: number;
  /** Devices to renew: those done plus those still waiting (recounted each pass). */
  total: number;
  /** Devices finished: given a new profile, or left on the previous certificate because Apple refused theirs. */
  done: number;
  /** Of `done`, the devices Apple made no new profile for (they keep the previous certificate until it expires). */
  skipped: number;
  /** Why a failed renewal ended (a message key). */
  error?: string;
  /** The new key pair's private key, sealed: lets a pass find (and revoke) a certificate a dead request made. */
  signingKey?: SealedSecret;
  certificateId?: string;
  certificateExpiresAt?: number;
  /** The new identity (`p12Base64`, `p12Password`), sealed. */
  identity?: SealedSecret;
  /** The customer `.p12` copies of the new identity, as `Account.customerP12`. */
  customerP12?: Record<string, SealedSecret>;
  /** Which copy of `customerP12` the devices receive (the tenant's password when the renewal started). */
  deviceP12Key?: string;
  /** When the account moved to the new certificate (the last devices are checked once more after). */
  switchedAt?: number;
  /** The certificate the account had before the switch, and its expiry: a review add made before it holds its `.p12`. */
  previousCertificateId?: string;
  previousCertificateExpiresAt?: number;
}

/**
 * The certificates a profile made now for a device added at `addedAt` lists: the account's, and the one before
 * the last renewal when the add came before the switch (its `.p12` is that certificate's; within the same second, it may be) and it is still valid,
 * so whichever `.p12` the customer holds installs.
 */
export function profileCertificateIds(account: Pick<Account, 'certificateId' | 'renewal'>, addedAt: number, now: number): string[] {
  const renewal = account.renewal;
  const previous = renewal?.previousCertificateId;
  if (!previous || previous === account.certificateId || !renewal.switchedAt || addedAt > renewal.switchedAt) return [account.certificateId];
  return (renewal.previousCertificateExpiresAt ?? 0) > now ? [account.certificateId, previous] : [account.certificateId];
}

/** The renewal as its owner sees it: progress, never a secret. */
/**
 * A new certificate's `ytime` (the contract: the membership's expiry, 0 meaning permanent). A connected account
 * whose owner has not said when the membership renews still has a certificate that ends: its expiry, never 0,
 * which a client would show as "permanent". An operator's account with neither date keeps 0, as it was given.
 */
export const deviceYtime = (account: Pick<Account, 'expiresAt' | 'certificateExpiresAt'>): number => (account.expiresAt > 0 ? account.expiresAt : account.certificateExpiresAt);

export function renewalView(renewal: AccountRenewal | undefined) {
  if (!renewal) return null;
  return {
    renewal_id: renewal.renewalId,
    state: renewal.state,
    done: renewal.done,
    total: renewal.total,
    skipped: renewal.skipped,
    started_at: renewal.startedAt,
    finished_at: renewal.finishedAt ?? null,
    ...(renewal.error ? { error: renewal.error } : {}),
  };
}

/** What is sealed with envelope encryption: the API key and the distribution identity. */
export interface AccountSecrets {
  privateKeyPem: string;
  p12Base64: string;
  p12Password: string;
}

export const APPLE_BASE_URL = 'https://api.appstoreconnect.apple.com';

export function poolKey(pool: PoolKind, owner: { tenantId: string; userId?: string }): string {
  return pool === 'public' ? `public#${owner.tenantId}` : `private#${owner.userId ?? ''}`;
}

export function accountView(account: Account) {
  return {
    account_id: account.accountId,
    pool: account.pool,
    tenant_id: account.tenantId,
    ...(account.ownerUserId ? { user_id: account.ownerUserId } : {}),
    mode: account.mode,
    weight: account.weight,
    tiers: account.tiers,
    free_slots: account.free,
    expires_at: account.expiresAt,
    status: account.status,
    paused: account.paused,
    simulated: account.simulated,
    team_id: account.teamId,
  };
}

/** The account as its owner sees it (`/api/user/apple-accounts`): slots, dates, state. Never a secret. */
export function ownerAccountView(account: Account) {
  const slots = Object.fromEntries(
    DEVICE_CLASSES.map((deviceClass) => {
      const free = account.free[deviceClass];
      return [deviceClass, { used: account.slotLimit - free, free: Math.max(0, free), limit: account.slotLimit }];
    }),
  ) as Record<DeviceClass, { used: number; free: number; limit: number }>;
  return {
    account_id: account.accountId,
    team_id: account.teamId,
    state: account.status,
    selling: account.status === 'active' && !account.paused,
    paused: account.paused,
    mode: account.mode,
    weight: account.weight,
    tiers: account.tiers,
    slots,
    membership_renews_at: account.expiresAt > 0 ? account.expiresAt : null,
    certificate: { id: account.certificateId, expires_at: account.certificateExpiresAt },
    renewal: renewalView(account.renewal),
    issuer_id: account.issuerId,
    key_id: account.keyId,
    alerts: account.alerts,
    connected: account.connected,
    created_at: account.createdAt,
  };
}
