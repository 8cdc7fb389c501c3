/**
 * Apple registrations as the slot rule keeps them (shared/domain/add-device/registration-slot.ts): one record
 * per UDID registered — or maybe registered — on an account and device class, saying who counts the one slot
 * Apple spends on it.
 */
import type { DeviceClass } from './account';
import type { DevicePool } from './device';

/** A UDID on an account, for one device class (Apple counts slots per class). */
export interface RegistrationRef {
  accountId: string;
  deviceClass: DeviceClass;
  udid: string;
}

/** What the record says now: its owner, if any, and the slots kept for it. */
export interface RegistrationSlots {
  ownerKid: string | undefined;
  kept: number;
}

/** A record with slots kept for it, as the worker reads it to settle. */
export interface PossibleRegistration extends RegistrationRef {
  /** Whose add kept a slot last: a registration kept by the worker becomes this user's failed row. */
  tenantId: string;
  userId: string;
  pool: DevicePool;
  /** Slots still kept for it. */
  slots: number;
  /** When an add last kept a slot for it (epoch seconds). */
  notedAt: number;
  ownerKid: string | undefined;
}

/** A slot note on an add's hold: `<account id>|<device class>`, where the add reserved a slot not yet accounted for. */
export const slotNote = (accountId: string, deviceClass: string) => `${accountId}|${deviceClass}`;

export function parseSlotNote(note: string): { accountId: string; deviceClass: string } {
  const [accountId = '', deviceClass = 'iphone'] = note.split('|');
  return { accountId, deviceClass };
}
