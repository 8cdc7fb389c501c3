/**
 * Issuing on an Apple account: pick one (right pool, mode and tier, a free slot, lowest weight first), reserve
 * the slot, register the device with Apple and create its ad hoc profile — falling through to the next account
 * when one is full, switched to review by Apple, or failing. Nothing here writes the device or charges.
 */
import type { AscClient } from '../../apple/asc-client';
import { AppleApiError } from '../../apple/asc-errors';
import type { AscDevice } from '../../apple/asc-resources';
import { listPool, setAccountMode } from '../../db/repositories/account-repository';
import { appleAddWaits } from '../../config';
import { logger } from '../../logger';
import { poolKey, type Account, type AccountMode, type DeviceClass } from '../../records/account';
import { ascClientFor, customerP12For } from '../accounts/account-access';
import { DomainError } from '../errors';
import { appleDeviceName } from './apple-device-name';
import type { AddSlots } from './registration-slot';

export interface IssueRequest {
  tenantId: string;
  userId: string;
  pool: 'public' | 'private';
  mode: AccountMode;
  tier: number;
  deviceClass: DeviceClass;
  udid: string;
  nowSeconds: number;
  /** The tenant's `p12Password`: the customer's `.p12` is the account's identity re-exported under it. */
  p12Password: string;
  /** Wall-clock ms after which no further account is tried (the route must answer within API Gateway's 29 s). */
  deadlineMs?: number;
  /** Accounts to try first: Apple already has the UDID there from an add that could not be recorded. */
  preferAccounts?: readonly string[];
  /**
   * The pool's accounts, already being read (`readPool`): the add starts the read beside its payment hold, which
   * saves it a round trip. Which slots are free is decided by the reservation's own condition, not by this read.
   */
  accounts?: Promise<Account[]>;
  /**
   * Called when this add registered (or found) the UDID on an account and then moved on (the profile failed,
   * or an instant account kept the device PROCESSING): Apple keeps the registration and its slot, so the
   * caller accounts for the add's reserved slot — an uncharged `failed` row that counts it (the next add of the
   * UDID reuses it instead of leaving it orphaned), or the slot back when another certificate counts it.
   */
  keepRegistration: (left: LeftRegistration) => Promise<void>;
  /** The add's slots: reserved, given back and kept through the one slot rule (registration-slot.ts). */
  slots: AddSlots;
}

/** A registration this add made (or found) on an account it then did not issue on. */
export interface LeftRegistration {
  account: Account;
  appleDevice: AscDevice;
  deviceName: string;
  /** Apple registered it for this add a moment ago: nobody else can count its slot yet. */
  newlyRegistered: boolean;
}

/**
 * Apple calls on the request path: shorter than the client's defaults (15 s, 3 tries), so one slow account
 * cannot use up the whole request and the add can still fall through to the next. The wait is
 * `APPLE_ADD_WAIT_MS` (8 s; config.ts), which only tests shorten.
 */
const requestPathApple = () => ({ timeoutMs: appleAddWaits().waitMs, maxAttempts: 2 });

export interface Issued {
  account: Account;
  appleDevice: AscDevice;
  /**
   * Apple had the UDID on this team before this add: another certificate may count its slot already (then the
   * reserved one goes back). False when Apple registered it for this add just now.
   */
  existed: boolean;
  /** Empty while Apple keeps the device PROCESSING (review mode). */
  mobileprovision: string;
  /** The account's certificate and key, re-exported under the tenant's p12 password (never the account's). */
  p12: string;
  deviceName: string;
}

/** The read of the pool's accounts an issue starts with (one Query). */
export function readPool(request: Pick<IssueRequest, 'pool' | 'tenantId' | 'userId' | 'deviceClass'>): Promise<Account[]> {
  return listPool(poolKey(request.pool, { tenantId: request.tenantId, userId: request.userId }), request.deviceClass);
}

export async function candidateAccounts(request: IssueRequest): Promise<Account[]> {
  const accounts = await (request.accounts ?? readPool(request));
  const eligible = accounts.filter(
    (a) => a.mode === request.mode && a.tiers.includes(request.tier) && (a.expiresAt === 0 || a.expiresAt > request.nowSeconds) && (a.pool === 'public' || a.ownerUserId === request.userId),
  );
  const preferred = new Set(request.preferAccounts ?? []);
  // A stable sort keeps the pool's weight order within each group.
  return eligible.sort((a, b) => Number(preferred.has(b.accountId)) - Number(preferred.has(a.accountId)));
}

type Attempt = { kind: 'issued'; issued: Issued } | { kind: 'next'; error?: AppleApiError };

/**
 * What a registration came to. `uncertain`: Apple's answer was lost or came too late, and the UDID was not
 * found (or could not be looked up) — Apple may still register it, so the slot is not given back on the spot
 * (see `keepPossible`).
 */
type Registration = { device: AscDevice; existed: boolean } | { uncertain: AppleApiError };

/**
 * Registers the UDID, or finds it. `existed` means Apple had it before this add, so its slot may be counted
 * already (registration-slot.ts decides, when the certificate is written). When Apple's answer is lost (no
 * response, or a 5xx after which nobody knows), the UDID is looked up: registered → the add goes on with it;
 * not registered (or the lookup fails) → `uncertain`.
 */
async function registerOrFind(client: AscClient, request: IssueRequest, name: string): Promise<Registration> {
  const sentAt = Date.now();
  try {
    return { device: await client.registerDevice({ name, udid: request.udid, platform: 'IOS' }), existed: false };
  } catch (error) {
    if (!(error instanceof AppleApiError) || (error.kind !== 'device_exists' && error.kind !== 'unavailable')) throw error;
    const lost = error.kind === 'unavailable';
    let device: AscDevice | undefined;
    try {
      device = await client.findDeviceByUdid(request.udid);
      // A request whose answer we gave up on may still be running at Apple's end: look once more, a moment
      // later (`APPLE_ADD_RECHECK_MS`, 3 s); a registration that completes even later is settled by the reservation worker.
      if (!device && lost) {
        await new Promise((resolve) => setTimeout(resolve, appleAddWaits().recheckMs));
        device = await client.findDeviceByUdid(request.udid);
      }
    } catch (lookupError) {
      if (lost && lookupError instanceof AppleApiError) return { uncertain: error };
      throw lookupError;
    }
    if (!device) {
      if (lost) return { uncertain: error };
      throw error;
    }
    // The answer was lost: the registration found may be this request's, or one Apple had before.
    const existed = !lost || registeredBefore(device, sentAt);
    if (lost) logger.warn('Apple’s answer to a registration was lost; the device is registered, going on', { tenantId: request.tenantId, udid: request.udid, existed });
    return { device, existed };
  }
}

/** Apple's `addedDate` is before the request was sent (with a margin for the two clocks). */
function registeredBefore(device: AscDevice, sentAtMs: number): boolean {
  const added = device.addedDate === undefined ? Number.NaN : Date.parse(device.addedDate);
  return Number.isFinite(added) && added < sentAtMs - CLOCK_MARGIN_MS;
}

const CLOCK_MARGIN_MS = 2_000;

/**
 * The customer's `.p12` for this account under the tenant's password, prepared when the account was added or
 * the password changed; undefined (logged) when there is none, so no device is registered on an account whose
 * certificate cannot be delivered.
 */
async function deliverableP12(account: Account, password: string): Promise<string | undefined> {
  const p12 = await customerP12For(account, password);
  if (p12 === undefined) logger.error('No customer .p12 is prepared for the tenant’s p12 password; trying the next account', { accountId: account.accountId });
  return p12;
}

async function tryAccount(account: Account, request: IssueRequest): Promise<Attempt> {
  const client = await ascClientFor(account, requestPathApple());
  // The add notes the slot on its hold in the same write that reserves it.
  if (!(await request.slots.reserve(account.accountId))) return { kind: 'next' };
  let p12: string | undefined;
  try {
    p12 = await deliverableP12(account, request.p12Password);
  } catch (error) {
    await request.slots.giveBack(account.accountId);
    throw error;
  }
  if (p12 === undefined) {
    await request.slots.giveBack(account.accountId);
    return { kind: 'next' };
  }
  const name = appleDeviceName(request.deviceClass, request.udid);
  let registered: Registration;
  try {
    registered = await registerOrFind(client, request, name);
  } catch (error) {
    if (!(error instanceof AppleApiError)) {
      await request.slots.giveBack(account.accountId);
      throw error;
    }
    if (error.kind === 'device_class_full') {
      await request.slots.classFull(account.accountId);
      return { kind: 'next' };
    }
    await request.slots.giveBack(account.accountId);
    if (error.kind === 'invalid_udid') throw new DomainError('add_failed', 'udid_rejected', { cause: error });
    logger.warn('Apple refused a registration; trying the next account', { accountId: account.accountId, kind: error.kind, detail: error.detail });
    return { kind: 'next', error };
  }

  if ('uncertain' in registered) {
    await request.slots.keepPossible(account, { udid: request.udid, tenantId: request.tenantId, userId: request.userId, pool: request.pool === 'private' ? 1 : 0 });
    logger.warn('Apple did not say whether it registered the device; the slot stays noted; trying the next account', { accountId: account.accountId, detail: registered.uncertain.detail });
    return { kind: 'next', error: registered.uncertain };
  }
  const { device, existed } = registered;
  const issued = (mobileprovision: string): Attempt => ({ kind: 'issued', issued: { account, appleDevice: device, existed, mobileprovision, p12, deviceName: name } });
  try {
    const profile = await client.createAdHocProfile({
      name: `${name} ${request.nowSeconds}`,
      bundleIdId: account.bundleIdId,
      certificateIds: [account.certificateId],
      deviceIds: [device.id],
    });
    if (profile.deviceIds.includes(device.id)) return issued(profile.profileContent);
  } catch (error) {
    if (!(error instanceof AppleApiError)) throw error;
    if (error.kind !== 'devices_processing') {
      // Apple has the registration (and counts the slot); a later add on this team finds it and continues.
      logger.warn('Profile creation failed; trying the next account', { accountId: account.accountId, kind: error.kind, detail: error.detail });
      await request.keepRegistration({ account, appleDevice: device, deviceName: name, newlyRegistered: !existed });
      await request.slots.settled(account.accountId);
      return { kind: 'next', error };
    }
  }
  // The device is still PROCESSING: the normal path of a review add, a sign of a new membership for an instant one.
  if (request.mode === 'review') return issued('');
  logger.warn('Instant account keeps new devices PROCESSING: moving it to review mode', { accountId: account.accountId });
  await setAccountMode(account.accountId, 'review');
  await request.keepRegistration({ account, appleDevice: device, deviceName: name, newlyRegistered: !existed });
  await request.slots.settled(account.accountId);
  return { kind: 'next' };
}

/**
 * Tries the pool's accounts in order until one delivers. No account left: `no_account_available`, or
 * `apple_unavailable` when Apple's failures (not full classes) are what stopped every try.
 */
export async function issueOnAccount(request: IssueRequest): Promise<Issued> {
  let lastError: AppleApiError | undefined;
  for (const account of await candidateAccounts(request)) {
    if (request.deadlineMs !== undefined && Date.now() > request.deadlineMs) break;
    const attempt = await tryAccount(account, request);
    if (attempt.kind === 'issued') return attempt.issued;
    lastError = attempt.error ?? lastError;
  }
  if (lastError) {
    const reason = lastError.kind === 'rate_limited' ? 'apple_rate_limited' : 'apple_unavailable';
    throw new DomainError('unavailable', reason, { cause: lastError });
  }
  throw new DomainError('add_failed', 'no_account_available', { params: { mode: request.mode, tier: request.tier, deviceType: request.deviceClass } });
}
