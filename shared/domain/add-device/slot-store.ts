/**
 * What the slot rule (registration-slot.ts) asks of storage, declared here so that the rule owns it: an
 * account's free slots per class, the registrations' records (who counts a registration's slot, the slots kept
 * for it) and the slot notes on an add's hold. Writes that must go together are handed out as transaction
 * parts, sent with the `transactions` store. The DynamoDB repository implements it for every function that
 * reaches the rule (`shared/stores/slots.ts` wires it); the rule tests run on an in-memory one. The conditions
 * and transactions themselves are the repository's, proven on DynamoDB Local (`test/add-device/`).
 */
import type { TransactionPart } from '../../db/transactions';
import type { AccountMode, DeviceClass } from '../../records/account';
import type { PossibleRegistration, RegistrationRef, RegistrationSlots } from '../../records/registration';

export interface SlotStore {
  // An account's free slots.
  /** Takes one slot of the class if the account is still active, still in `mode` and has one left; `also` in the same write. */
  reserve(accountId: string, deviceClass: DeviceClass, mode: AccountMode, also?: TransactionPart): Promise<boolean>;
  /** Gives one slot of the class back. */
  release(accountId: string, deviceClass: DeviceClass): Promise<void>;
  /** No slot of the class is left, whatever the count said (Apple says the class is full). */
  markClassFull(accountId: string, deviceClass: DeviceClass): Promise<void>;
  /** Gives `count` slots back, as a part. */
  releasePart(accountId: string, deviceClass: DeviceClass, count?: number): TransactionPart;
  /**
   * A slot Apple used (already taken off by the reservation), as a part: `release` slots kept for the same
   * registration go back; when `reserved` is another class than Apple's `deviceClass`, the reserved slot goes
   * back and one of Apple's is counted, unconditionally (Apple has registered the device).
   */
  usePart(accountId: string, deviceClass: DeviceClass, release?: number, reserved?: DeviceClass): TransactionPart;
  /** Adds each change to the class's free slots; with `issued`, one more slot of that class counted as used. */
  countPart(accountId: string, changes: ReadonlyMap<DeviceClass, number>, issued?: DeviceClass): TransactionPart;

  // Registrations.
  readRegistration(ref: RegistrationRef): Promise<RegistrationSlots>;
  /** `kid` becomes the owner, if nobody is and exactly `kept` slots are kept for it (they are cleared). */
  ownPart(ref: RegistrationRef, kid: string, kept: number): TransactionPart;
  /** One more slot kept for the registration, whose add did not know whether Apple made it. */
  notePossiblePart(possible: Omit<PossibleRegistration, 'slots' | 'ownerKid'>): TransactionPart;
  /** Records with kept slots nothing has touched since `before` (epoch seconds). */
  listDuePossible(before: number, limit: number): Promise<PossibleRegistration[]>;
  /** Settles the record as read (fails if anything changed since); with `ownerKid`, that certificate becomes its owner. */
  settlePossiblePart(possible: PossibleRegistration, now: number, ownerKid?: string): TransactionPart;
  /** Whether a certificate on the account points at Apple's device (registrations from before owners were recorded). */
  hasRegistrationRow(accountId: string, appleDeviceId: string): Promise<boolean>;

  // The slot notes on an add's hold (records/registration.ts `slotNote`).
  /** The note, as a part of the slot's reservation (only while the hold is held). */
  notePart(holdId: string, note: string): TransactionPart;
  /** Removes the note; true for exactly one caller, who then acts on the slot. */
  noteSettled(holdId: string, note: string): Promise<boolean>;
  /** The same as a part (fails when the note is gone). */
  noteSettledPart(holdId: string, note: string): TransactionPart;
}
