/**
 * The add-device flow behind `/api/adddevice/v2` and the legacy add routes: short-circuit, free re-issue,
 * force-add period, the payment held, issuing on an Apple account, and one transaction that records the
 * device (and reservation), completes the hold and counts the slot. Every refusal is a DomainError.
 *
 * The invariants: charged ⇒ delivered or refunded (a hold is completed only together with the device it
 * paid for, and released otherwise); a slot is spent only while a payment is held (the hold comes before
 * any Apple call); a registration Apple accepted is never lost (if the final transaction cannot be written,
 * an uncharged `failed` row keeps Apple's device id, and the next add of the UDID goes to that account).
 */
import { recentAddPart } from '../../db/repositories/add-lock-repository';
import { readAddSnapshot } from '../../db/repositories/add-snapshot-repository';
import { getDevice, listDevicesByUserUdid, nextDeviceId } from '../../db/repositories/device-repository';
import { issuedDeviceParts, type IssuedDevice } from '../../db/repositories/issued-device-repository';
import { holdCompletePart, type PaymentHold } from '../../db/repositories/payment-hold-repository';
import { releaseHold, uplineOf, writeWithUpline } from '../ledger/charges';
import { agentAddedParts } from '../events/agent-events';
import { quoteAgentAdd } from '../agents/agent-prices';
import { reservationPutPart } from '../../db/repositories/reservation-repository';
import type { TransactionPart } from '../../db/transactions';
import { logger } from '../../logger';
import { randomId } from '../../ids';
import type { Device } from '../../records/device';
import { deviceYtime } from '../../records/account';
import { DomainError } from '../errors';
import { freeReissueTier, NOT_AN_ADD } from './free-reissue';
import { nextCheckDelaySeconds, type Reservation } from '../../records/reservation';
import type { Tenant } from '../../records/tenant';
import type { TokenOwner, User } from '../../records/user';
import { priceItem, priceScopes } from '../pricing/prices';
import { addMonth } from '../../records/price-band';
import type { AddRequest } from './add-request';
import { addLockKey, withAddLock, type HeldLock } from './add-lock';
import { issueOnAccount, readPool, type Issued } from './issue-on-account';
import { addSlots, keepRegistration, NEWLY_REGISTERED, slotClass, slotState, writeWithSlot } from './registration-slot';
import { choosePayment, holdPayment, type Payment } from './payment';
import { addRefunded } from '../../observability/metrics';
import { deviceAddedPart } from '../events/add-events';

export interface AddContext {
  tenant: Tenant;
  user: TokenOwner;
  /** Request time, epoch seconds. */
  now: number;
}

/** The response `data` of an add. */
export interface AddedCertificate {
  id: string;
  pool: number;
  addtime: number;
  mobileprovision: string;
  p12: string;
}

/** Time to try accounts in; leaves room for the transaction inside the function's 28 s and API Gateway's 29 s. */
const ISSUE_BUDGET_MS = 18_000;

const USABLE = new Set(['normal', 'processing']);
/** Tries of the final transaction: it only meets transient conflicts once the payment is held. */
const RECORD_ATTEMPTS = 3;

function view(device: Device, mode: AddRequest['mode']): AddedCertificate {
  return {
    id: mode === 'review' && device.reservation_id ? device.reservation_id : device.kid,
    pool: device.pool,
    addtime: device.addtime,
    mobileprovision: device.mobileprovision,
    p12: device.p12,
  };
}

/**
 * The user's certificates of the UDID, newest first, including the one the last add of this key delivered a
 * moment ago (`recentKid`, the marker the lock handed back: the user+UDID index may not show it yet).
 */
async function certificatesOfUdid(listed: Device[], recentKid: string | undefined): Promise<Device[]> {
  if (!recentKid || listed.some((d) => d.kid === recentKid)) return listed;
  const recent = await getDevice(recentKid);
  return recent ? [recent, ...listed] : listed;
}

export async function addDevice(context: AddContext, request: AddRequest): Promise<AddedCertificate> {
  const { tenant, user: owner } = context;
  // A token identifies its user on every site but buys nothing on another tenant's.
  if (owner.tenantId !== tenant.tenantId) throw new DomainError('token_invalid', 'token_invalid');
  // The user's certificates of the UDID, read before any lock: a repeated add (how review results are
  // collected) that finds a usable certificate answers it at once, without the lock that only adds that may
  // register or charge need. Under the lock, the add marker catches a certificate written since this read.
  const listed = await listDevicesByUserUdid(owner.userId, request.udid);
  if (!request.force) {
    const usable = listed.find((d) => d.tenant_id === tenant.tenantId && d.pool === request.pool && USABLE.has(d.zt));
    if (usable) return view(usable, request.mode);
  }
  // The user (the balance) and the price rows are read beside the lock, not under it, which saves the add a
  // round trip: what an identical add delivered comes back with the lock itself (its marker), and the hold
  // re-checks the balance against the ledger when it takes the payment. Only when another add of this key ran
  // a moment ago (the lock was held, or its item is fresh) can that add's refund have come after the read,
  // so the snapshot is read again under the lock, as it always was before.
  const lockKey = addLockKey({ userId: owner.userId, udid: request.udid, pool: request.pool });
  const readSnapshot = () => readAddSnapshot({ lockKey, userId: owner.userId, priceScopes: priceScopes({ tenantId: tenant.tenantId, userId: owner.userId }), priceItem: priceItem(request.mode, request.tier ?? 0, request.deviceClass), month: addMonth(context.now) });
  const early = readSnapshot();
  early.catch(() => undefined); // heard under the lock, or dropped with a refused one
  // A forced add does not queue behind an identical one: it would register and charge a second time.
  return withAddLock({ userId: owner.userId, udid: request.udid, pool: request.pool }, { wait: !request.force }, async (waited, lock) => {
    const { user, prices: priceRows, bands: priceBands, monthAdds, recentKid } = lock.contended ? await readSnapshot() : await early;
    // The separate marker is read only for adds of the version deployed before (see add-lock-repository.ts).
    const certificates = await certificatesOfUdid(listed, lock.recentKid ?? recentKid);
    // Deleted between the token check and now: the token no longer names anyone.
    if (!user) throw new DomainError('token_invalid', 'token_invalid');
    const mine = certificates.filter((d) => d.tenant_id === tenant.tenantId);
    const inPool = mine.filter((d) => d.pool === request.pool);

    // An identical add that held the lock before us already delivered: return its certificate.
    const usable = inPool.find((d) => USABLE.has(d.zt));
    if (usable && (!request.force || waited)) {
      // The index may lag an update (the worker just issued the profile): answer from the item itself.
      return view((await getDevice(usable.kid)) ?? usable, request.mode);
    }

    const free = request.force ? undefined : freeReissueTier(inPool.find((d) => !NOT_AN_ADD.has(d.zt)), request.mode, tenant, context.now);
    // A customer's re-issue is never charged: outside the window (or once replaced) it is refused, not sold.
    if (request.freeOnly && !free) throw new DomainError('add_failed', 'reissue_not_covered');
    if (!request.force && !free) {
      const newest = mine.find((d) => !NOT_AN_ADD.has(d.zt));
      if (newest && context.now - newest.addtime < tenant.settings.forceAddPeriodSeconds) {
        throw new DomainError('add_failed', 'within_force_period');
      }
    }

    // An agent's add: its chain is read (suspension anywhere above refuses it before anything is charged) and priced.
    const agent = user.upline.length > 0 ? await quoteAgentAdd(user, priceItem(request.mode, request.tier ?? 0, request.deviceClass), context.now) : undefined;
    const payment = await choosePayment({ request, user, tenantId: tenant.tenantId, freeTier: free?.tier, priceRows, priceBands, monthAdds, now: context.now, agent });
    // Named before the payment, so the ledger's charge entry says what it pays for.
    const ids: AddIds = { kid: randomId('k', 16), reservationId: request.mode === 'review' ? randomId('r', 16) : undefined };
    const pool = request.pool === 1 ? 'private' : 'public';
    // The pool's accounts are read while the payment is held (a read: it spends nothing, and every slot is
    // still reserved after the hold, under the reservation's own condition).
    const accounts = readPool({ pool, tenantId: tenant.tenantId, userId: user.userId, deviceClass: request.deviceClass });
    accounts.catch(() => undefined); // heard by issueOnAccount, or dropped with a refused hold
    const hold = await holdPayment(payment, { user, tenantId: tenant.tenantId, udid: request.udid, pool: request.pool }, { ...ids, mode: request.mode }, context.now);
    // The device's numeric id is drawn beside the slot's reservation, not after Apple: a round trip fewer, at
    // the price of an unused id (a gap in the tenant's ids) when the add then fails.
    const deviceId = nextDeviceId(tenant.tenantId);
    deviceId.catch(() => undefined); // heard by record(), or dropped with a failed add
    let issued: Issued;
    try {
      issued = await issueOnAccount({
        tenantId: tenant.tenantId,
        userId: user.userId,
        pool,
        accounts,
        mode: request.mode,
        tier: payment.tier,
        deviceClass: request.deviceClass,
        udid: request.udid,
        nowSeconds: context.now,
        p12Password: tenant.settings.p12Password,
        deadlineMs: Date.now() + ISSUE_BUDGET_MS,
        // Apple already has this UDID on these accounts from an add that could not be recorded: no new slot there.
        preferAccounts: inPool.filter((d) => d.zt === 'failed' && d.apple_device_id).map((d) => d.account_id),
        keepRegistration: async (left) =>
          void (await keepRegistration(
            { tenantId: tenant.tenantId, userId: user.userId, udid: request.udid, pool: request.pool, deviceClass: request.deviceClass, beizhu: request.beizhu, account: left.account, appleDevice: left.appleDevice, deviceName: left.deviceName, now: context.now },
            { newlyRegistered: left.newlyRegistered },
          )),
        // Every add, paid or free, notes on its hold where it reserved slots, so the sweep can settle them if the add dies.
        slots: addSlots(hold.holdId, request.deviceClass, request.mode),
      });
    } catch (error) {
      await refund(hold, context.now, error instanceof DomainError ? error.reason : 'issue_failed');
      throw error;
    }
    // The hold's charge is what was taken (priced again if a concurrent add moved a month's count first).
    return record({ ...context, user }, request, { ...payment, charge: hold.charge }, hold, issued, free?.warrantyFrom, lock, { ...ids, deviceId });
  });
}

/** Releases the hold (a free one gives nothing back, so only a paid one counts as a refund). */
async function refund(hold: PaymentHold, now: number, reason: string): Promise<void> {
  if ((await releaseHold(hold, now, reason)) && hold.charge.kind !== 'free') addRefunded(reason);
}

/** The ids of what an add delivers: the certificate, and in review mode the reservation. */
interface AddIds {
  kid: string;
  reservationId: string | undefined;
}

async function record(context: AddContext & { user: User }, request: AddRequest, payment: Payment, hold: PaymentHold, issued: Issued, warrantyFrom: number | undefined, lock: HeldLock, ids: AddIds & { deviceId: Promise<number> }): Promise<AddedCertificate> {
  const { user, tenant, now } = context;
  const pending = issued.mobileprovision === '';
  const { kid } = ids;
  // Apple's class, not the asked one: it decides which slot the registration spends and what the profile is for.
  const deviceClass = slotClass(issued.appleDevice, request.deviceClass);
  const reservation: Reservation | undefined =
    ids.reservationId !== undefined
      ? {
          reservationId: ids.reservationId,
          status: pending ? 'pending' : 'issued',
          tenantId: tenant.tenantId,
          userId: user.userId,
          kid,
          accountId: issued.account.accountId,
          appleDeviceId: issued.appleDevice.id,
          udid: request.udid,
          deviceClass,
          charge: payment.charge,
          createdAt: now,
          nextCheckAt: now + nextCheckDelaySeconds(0),
          attempts: 0,
        }
      : undefined;
  const device: IssuedDevice = {
    kid,
    id: await ids.deviceId,
    user_id: user.userId,
    tenant_id: tenant.tenantId,
    udid: request.udid,
    pname: issued.deviceName,
    type: deviceClass,
    shtype: payment.tier,
    zt: pending ? 'processing' : 'normal',
    ytime: deviceYtime(issued.account),
    enabled: true,
    beizhu: request.beizhu,
    p12: issued.p12,
    mobileprovision: issued.mobileprovision,
    pool: request.pool,
    account_id: issued.account.accountId,
    addtime: now,
    apple_device_id: issued.appleDevice.id,
    reservation_id: reservation?.reservationId ?? '',
    issued_account: issued.account.accountId,
    warranty_from: warrantyFrom ?? now,
    charge: payment.charge,
  };
  // Whether this certificate counts the registration's slot or gives its reserved one back is decided in the
  // same write (registration-slot.ts): Apple spends one slot per registration however many adds reserved one.
  // The slot this add reserved was of the asked class: when Apple's differs, the same write trades it for one of Apple's.
  const claim = { accountId: issued.account.accountId, deviceClass, reserved: request.deviceClass, udid: request.udid, appleDeviceId: issued.appleDevice.id };
  const slotBefore = issued.existed ? await slotState(claim) : NEWLY_REGISTERED;
  const lockKey = addLockKey({ userId: user.userId, udid: request.udid, pool: request.pool });
  const recent = recentAddPart(lockKey, kid, now);
  // One atomic write across the repositories: each hands out its part, none of them sees the others'.
  const parts: TransactionPart[] = [
    ...issuedDeviceParts(device),
    recent,
    ...(reservation ? [reservationPutPart(reservation)] : []),
    holdCompletePart(hold.holdId, now),
    ...(pending ? [] : [deviceAddedPart(device, request.mode)]),
    // The lock is freed with the add's own write; it still holds (it outlives any add), so this never fails alone.
    lock.part(kid, now),
  ];
  for (let attempt = 1; attempt <= RECORD_ATTEMPTS; attempt++) {
    try {
      // An agent's add also credits and charges every level above it here, with the certificate (charges.ts).
      const upline = pending ? undefined : uplineOf(payment.charge);
      const uplineRef = { hold_id: hold.holdId, kid, udid: request.udid, mode: request.mode, tier: payment.tier, ...(reservation ? { reservation_id: reservation.reservationId } : {}), agent_id: user.userId };
      const withUpline = upline ? [...parts, ...agentAddedParts(device, request.mode, upline)] : parts;
      if ((await writeWithUpline(upline, uplineRef, now, withUpline, (all) => writeWithSlot(claim, kid, slotBefore, all), payment.uplineHeads)).ok) {
        lock.released();
        return view(device, request.mode);
      }
      break; // a condition failed: the hold was settled elsewhere, so trying again cannot succeed
    } catch (error) {
      logger.warn('The add’s final transaction failed; trying again', { kid, attempt, error: error as Error });
    }
  }

  // Apple has the registration but the add cannot be recorded: refund exactly the hold, and keep the
  // registration as an uncharged failed certificate so the next add of this UDID reuses it (no new slot).
  logger.warn('Recording the add failed after Apple registered the device; refunding and keeping the registration', { kid, accountId: issued.account.accountId });
  await refund(hold, now, 'add_not_recorded');
  // The state read before still holds or is re-read: an owner, once recorded, stays; anything else fails the condition.
  await writeWithSlot(claim, kid, slotBefore, issuedDeviceParts({ ...device, zt: 'failed', mobileprovision: '', reservation_id: '', charge: { kind: 'free' } }));
  throw new DomainError('unavailable', 'add_not_recorded');
}
