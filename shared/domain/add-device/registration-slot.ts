/**
 * The one rule for Apple slots: Apple spends one slot per UDID registered on a team, and every add of that
 * UDID on the account reserved one of its own. Exactly one of them keeps it: the one whose write makes its
 * certificate the registration's owner (a conditional write on the registration's record, in the same
 * transaction as the certificate). Every other gives its reserved slot back. Slots kept by adds that did not
 * know whether Apple registered the UDID go back with the owner's write.
 *
 * Everything that takes, keeps or gives back a slot goes through here: the add (reserving a slot on an
 * account, giving it back, keeping a registration it moved on from, its final write), the reservation worker
 * (settling the slots kept for a registration Apple may have made late) and the stale-hold sweep (settling
 * the slots a dead add reserved). Their writes come from one store (slot-store.ts; on DynamoDB the repository
 * registration-slot-repository.ts), sent together through the `transactions` store.
 *
 * Before owners were recorded, "does a certificate point at the registration?" stood for "is its slot
 * counted?". That cannot see an add whose certificate is not written yet, and the soak found two slots
 * counted for one registration (and, the other way round, none).
 *
 * The class whose slot a registration spends is Apple's (`deviceClass` in its answer, from the hardware), not
 * the one the add asked for: the registration's record is keyed by it, its owner counts a slot of it, and an
 * add that reserved a slot of another class gives that one back in the same write. Only a slot kept while
 * Apple's answer is unknown is kept under the asked class (there is no answer to read a class from); the
 * worker settles it against the record of Apple's class once it can look the device up.
 */
import type { AscDevice } from '../../apple/asc-resources';
import { getAccount } from '../../db/repositories/account-repository';
import { nextDeviceId } from '../../db/repositories/device-repository';
import { issuedDeviceParts, type IssuedDevice } from '../../db/repositories/issued-device-repository';
import type { PaymentHold } from '../../db/repositories/payment-hold-repository';
import type { TransactionPart } from '../../db/transactions';
import { randomId } from '../../ids';
import { logger } from '../../logger';
import { deviceYtime, type Account, type AccountMode, type DeviceClass } from '../../records/account';
import type { DevicePool } from '../../records/device';
import { parseSlotNote, slotNote, type PossibleRegistration, type RegistrationRef } from '../../records/registration';
import { ascClientFor } from '../accounts/account-access';
import { store } from '../stores';
import type { TransactionStoreOutcome } from '../transaction-store';

const slots = () => store('slots');
const transactWrite = (parts: readonly TransactionPart[]) => store('transactions').write(parts);

/**
 * A UDID Apple has registered on an account, and Apple's id for it. `deviceClass` is Apple's class of the
 * registration (`slotClass`); `reserved` the class of the slot the add (or the add a row stands for) took.
 */
export interface RegistrationClaim extends RegistrationRef {
  appleDeviceId: string;
  reserved: DeviceClass;
}

const APPLE_CLASSES: Readonly<Record<string, DeviceClass>> = { IPHONE: 'iphone', IPAD: 'ipad', MAC: 'mac' };

/**
 * The class whose slot Apple spends on the device: the one Apple reports. A class we keep no count of (an iPod
 * touch, a watch) is counted as the class the add asked for, as before Apple's class was read.
 */
export function slotClass(device: Pick<AscDevice, 'deviceClass'>, asked: DeviceClass): DeviceClass {
  return APPLE_CLASSES[device.deviceClass.toUpperCase()] ?? asked;
}

/** Whether some certificate counts the registration's slot; if not, how many slots adds kept for it meanwhile. */
export type SlotState = { owned: true } | { owned: false; kept: number };

/** What an add assumes of a UDID Apple registered for it just now: nobody counts it yet, no slot is kept for it. */
export const NEWLY_REGISTERED: SlotState = { owned: false, kept: 0 };

/**
 * Whether a certificate counts the registration's slot, given its record's owner: the owner, or — for a
 * registration from before owners were recorded — any certificate pointing at it.
 */
export async function countedAlready(claim: RegistrationClaim, ownerKid: string | undefined): Promise<boolean> {
  return ownerKid !== undefined || slots().hasRegistrationRow(claim.accountId, claim.appleDeviceId);
}

/** Reads who counts the registration's slot now. */
export async function slotState(claim: RegistrationClaim): Promise<SlotState> {
  const record = await slots().readRegistration(claim);
  return (await countedAlready(claim, record.ownerKid)) ? { owned: true } : { owned: false, kept: record.kept };
}

/** Another certificate becoming the owner, or an add keeping a slot, between the read and the write. */
const OWNERSHIP_TRIES = 5;

/**
 * Writes `rest` together with the account of one reserved slot on the registration: `kid` becomes its owner
 * (keeping the slot; `ownerOnly` is written too, e.g. the row that is to own it) or, when another certificate
 * counts it, the slot goes back. When the ownership condition fails (someone got there first), the state is
 * read again and the write tried once more. The outcome's `failed` indexes are those of `rest`.
 */
export async function writeWithSlot(
  claim: RegistrationClaim,
  kid: string,
  initial: SlotState,
  rest: TransactionPart[],
  ownerOnly: TransactionPart[] = [],
): Promise<TransactionStoreOutcome & { isOwner: boolean }> {
  let state = initial;
  for (let attempt = 1; attempt <= OWNERSHIP_TRIES; attempt++) {
    const slot = state.owned
      ? [slots().releasePart(claim.accountId, claim.reserved)]
      : [slots().ownPart(claim, kid, state.kept), slots().usePart(claim.accountId, claim.deviceClass, state.kept, claim.reserved), ...ownerOnly];
    const outcome = await transactWrite([...slot, ...rest]);
    if (outcome.ok) return { ok: true, isOwner: !state.owned };
    if (state.owned || !outcome.failed.includes(0)) {
      return { ...outcome, failed: outcome.failed.filter((i) => i >= slot.length).map((i) => i - slot.length), isOwner: false };
    }
    state = await slotState(claim);
  }
  // Thrown, not answered: for the caller this is transient trouble it may retry, not a rule that refused it.
  throw new Error(`The registration's owner kept changing (${claim.accountId}, ${claim.udid})`);
}

// Keeping a registration nobody delivered on.
//
// A registration Apple holds for an add that did not deliver on that account — the add moved on after the
// account's profile failed, or the add's function died after Apple registered the device — is kept as an
// uncharged `failed` certificate with Apple's device id: the registration and its slot belong to a row, and
// the next add of the UDID on that account reuses them instead of using a new slot.

export interface KeptRegistration {
  tenantId: string;
  userId: string;
  udid: string;
  pool: DevicePool;
  /** The class of the slot the add reserved. */
  deviceClass: DeviceClass;
  beizhu: string;
  account: Account;
  appleDevice: Pick<AscDevice, 'id' | 'deviceClass'>;
  deviceName: string;
  now: number;
}

/** The failed row that keeps the registration: uncharged, no profile, Apple's device id. */
async function keptRow(kept: KeptRegistration): Promise<IssuedDevice> {
  return {
    kid: randomId('k', 16),
    id: await nextDeviceId(kept.tenantId),
    user_id: kept.userId,
    tenant_id: kept.tenantId,
    udid: kept.udid,
    pname: kept.deviceName,
    // Apple's class: the registration (and any profile made for it later) is for that hardware.
    type: slotClass(kept.appleDevice, kept.deviceClass),
    shtype: 0,
    zt: 'failed',
    ytime: deviceYtime(kept.account),
    enabled: true,
    beizhu: kept.beizhu,
    p12: '',
    mobileprovision: '',
    pool: kept.pool,
    account_id: kept.account.accountId,
    addtime: kept.now,
    apple_device_id: kept.appleDevice.id,
    reservation_id: '',
    issued_account: kept.account.accountId,
    warranty_from: kept.now,
    charge: { kind: 'free' },
  };
}

/**
 * Accounts for the slot reserved for a registration nobody delivered on: the failed row is written and counts
 * the slot — or, when another certificate counts it already, the slot goes back and no row is needed. `also`
 * joins the same write (a dead add's note on its hold). `newlyRegistered`: Apple registered the UDID for this
 * add a moment ago, so nobody can count it yet (no read first). A failure is logged, not thrown: whatever the
 * caller was doing can still finish. The outcome's `failed` indexes are those of `also`.
 */
export async function keepRegistration(kept: KeptRegistration, options: { newlyRegistered?: boolean; also?: TransactionPart[] } = {}): Promise<TransactionStoreOutcome | undefined> {
  const claim = { accountId: kept.account.accountId, deviceClass: slotClass(kept.appleDevice, kept.deviceClass), reserved: kept.deviceClass, udid: kept.udid, appleDeviceId: kept.appleDevice.id };
  const also = options.also ?? [];
  try {
    const row = await keptRow(kept);
    const state = options.newlyRegistered ? NEWLY_REGISTERED : await slotState(claim);
    const outcome = await writeWithSlot(claim, row.kid, state, also, issuedDeviceParts(row));
    if (outcome.isOwner) logger.warn('Kept a registration no certificate was delivered on as a failed certificate', { kid: row.kid, accountId: kept.account.accountId });
    return outcome;
  } catch (error) {
    logger.error('Could not keep a registration no certificate was delivered on', { accountId: kept.account.accountId, appleDeviceId: kept.appleDevice.id, error: error as Error });
    return undefined;
  }
}

// An add's slots: reserved on an account, noted on the add's hold, and accounted for once.

/**
 * One add's slots, noted on its hold (paid or free): every slot it reserves is noted in the same write, and
 * the note is cleared when the slot is accounted for (given back, kept for a registration, or counted by the
 * add's final write). What is still noted when the add dies, the stale-hold sweep settles (`settleDeadAddSlots`).
 */
export interface AddSlots {
  /** Takes one slot of the class on the account (still active, still in `mode`), noting it on the hold. */
  reserve(accountId: string): Promise<boolean>;
  /** The reserved slot was not used (Apple refused, or the add moved on before registering): it goes back. */
  giveBack(accountId: string): Promise<void>;
  /** Apple says the class is full: no slot of it is left on the account, the reserved one included. */
  classFull(accountId: string): Promise<void>;
  /** The reserved slot was accounted for otherwise (its registration kept): the note goes. */
  settled(accountId: string): Promise<void>;
  /**
   * Apple did not say whether it registered the UDID: the slot is not given back but kept on the registration's
   * record (the note moves there in the same write) for the reservation worker to settle (`settlePossibleRegistrations`).
   */
  keepPossible(account: Account, possible: { udid: string; tenantId: string; userId: string; pool: DevicePool }): Promise<void>;
}

export function addSlots(holdId: string, deviceClass: DeviceClass, mode: AccountMode): AddSlots {
  const note = (accountId: string) => slotNote(accountId, deviceClass);
  const settled = async (accountId: string) => {
    await slots().noteSettled(holdId, note(accountId)).catch((error: unknown) => logger.error('Could not settle a slot note', { accountId, error: error as Error }));
  };
  return {
    reserve: (accountId) => slots().reserve(accountId, deviceClass, mode, slots().notePart(holdId, note(accountId))),
    async giveBack(accountId) {
      await slots().release(accountId, deviceClass);
      await settled(accountId);
    },
    async classFull(accountId) {
      await slots().markClassFull(accountId, deviceClass);
      await settled(accountId);
    },
    settled,
    async keepPossible(account, possible) {
      const part = slots().notePossiblePart({ accountId: account.accountId, deviceClass, ...possible, notedAt: Math.floor(Date.now() / 1000) });
      try {
        const outcome = await transactWrite([part, slots().noteSettledPart(holdId, note(account.accountId))]);
        if (!outcome.ok) logger.error('The slot note of a possible registration was already settled', { accountId: account.accountId });
      } catch (error) {
        // Still on the hold: the stale-hold sweep settles it as it settles a dead add's.
        logger.error('Could not keep a possible registration', { accountId: account.accountId, error: error as Error });
      }
    },
  };
}

// The worker's part: slots whose add is gone.

/**
 * A slot a dead add reserved on an account and never accounted for: Apple has the UDID there → the add may
 * have registered it and died, so its slot is accounted for as any add's is: kept by a
 * failed row that counts the registration, or given back when another certificate counts it already; Apple
 * does not have it → the slot was not used and goes back. Settling the hold's note is part of that write, so
 * a slot is never accounted for twice. False when Apple could not be asked (the next pass tries again).
 */
async function settleSlot(hold: PaymentHold, note: string, now: number): Promise<boolean> {
  const { accountId, deviceClass: noted } = parseSlotNote(note);
  const deviceClass = noted as DeviceClass;
  const account = await getAccount(accountId);
  if (!account) return slots().noteSettled(hold.holdId, note).then(() => true);
  let device: AscDevice | undefined;
  try {
    device = await (await ascClientFor(account)).findDeviceByUdid(hold.udid);
  } catch (error) {
    logger.warn('Could not ask Apple about a slot a dead add reserved; trying again next pass', { holdId: hold.holdId, accountId, error: error as Error });
    return false;
  }
  const settled = slots().noteSettledPart(hold.holdId, note);
  // A condition that fails here is the note's: whoever settled it first accounted for the slot.
  if (!device) return transactWrite([settled, slots().releasePart(accountId, deviceClass)]).then(() => true);
  const kept = await keepRegistration(
    { tenantId: hold.tenantId, userId: hold.userId, udid: hold.udid, pool: hold.pool ?? 0, deviceClass, beizhu: '', account, appleDevice: device, deviceName: device.name, now },
    { also: [settled] },
  );
  return kept !== undefined;
}

/**
 * A slot an add kept because it did not know whether Apple registered the device, old enough that no answer
 * can still come: Apple has the UDID and no certificate counts it → the add's late registration, kept as a
 * failed row that becomes its owner (one slot stays used, the rest go back); otherwise (not registered, or
 * counted already) every slot kept for it goes back. False when Apple could not be asked or an add touched
 * the record meanwhile.
 */
async function settlePossible(possible: PossibleRegistration, now: number): Promise<boolean> {
  const account = await getAccount(possible.accountId);
  if (!account || possible.slots <= 0) return (await transactWrite([slots().settlePossiblePart(possible, now)])).ok;
  let device: AscDevice | undefined;
  try {
    device = await (await ascClientFor(account)).findDeviceByUdid(possible.udid);
  } catch (error) {
    logger.warn('Could not ask Apple about a possible registration; trying again next pass', { accountId: possible.accountId, error: error as Error });
    return false;
  }
  const release = (count: number) => (count > 0 ? [slots().releasePart(possible.accountId, possible.deviceClass, count)] : []);
  if (!device) return (await transactWrite([slots().settlePossiblePart(possible, now), ...release(possible.slots)])).ok;
  const appleClass = slotClass(device, possible.deviceClass);
  const claim = { accountId: possible.accountId, deviceClass: appleClass, reserved: possible.deviceClass, udid: possible.udid, appleDeviceId: device.id };
  // Kept under the asked class, but Apple's is another: the registration's own record is that of Apple's class.
  const appleRecord = appleClass === possible.deviceClass ? undefined : await slots().readRegistration(claim);
  if (await countedAlready(claim, appleRecord ? appleRecord.ownerKid : possible.ownerKid)) return (await transactWrite([slots().settlePossiblePart(possible, now), ...release(possible.slots)])).ok;
  const row = await keptRow({ tenantId: possible.tenantId, userId: possible.userId, udid: possible.udid, pool: possible.pool, deviceClass: possible.deviceClass, beizhu: '', account, appleDevice: device, deviceName: device.name, now });
  const parts = appleRecord
    ? // Every slot kept under the asked class goes back; the row owns the record of Apple's class (the slots kept there go back too) and counts one slot of that class.
      [
        slots().settlePossiblePart(possible, now),
        slots().ownPart(claim, row.kid, appleRecord.kept),
        slots().countPart(
          possible.accountId,
          new Map([
            [possible.deviceClass, possible.slots],
            [appleClass, appleRecord.kept - 1],
          ]),
        ),
      ]
    : [slots().settlePossiblePart(possible, now, row.kid), ...release(possible.slots - 1)];
  const outcome = await transactWrite([...parts, ...issuedDeviceParts(row)]);
  if (outcome.ok) logger.warn('Kept a registration Apple made after its add stopped waiting as a failed certificate', { kid: row.kid, accountId: possible.accountId });
  return outcome.ok;
}

/** Settles up to `limit` records whose kept slots nothing has touched since `before`; how many were settled. */
export async function settlePossibleRegistrations(before: number, limit: number, now: number): Promise<number> {
  const settled = await Promise.all((await slots().listDuePossible(before, limit)).map((p) => settlePossible(p, now)));
  return settled.filter(Boolean).length;
}

/**
 * Settles every slot a dead add's hold still notes. True when all of them are accounted for, so the hold may be
 * released; false when one waits for the next pass (Apple could not be asked).
 */
export async function settleDeadAddSlots(hold: PaymentHold, now: number): Promise<boolean> {
  const settled = await Promise.all((hold.slotAccounts ?? []).map((note) => settleSlot(hold, note, now)));
  return settled.every(Boolean);
}
