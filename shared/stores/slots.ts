/**
 * The slot store of every function that reaches the slot rule (the add, the reservation worker and the
 * stale-hold sweep): the DynamoDB repository, wired when the handler imports this module. Here, above both
 * floors, the compiler checks that the repository implements the interface the rule declared.
 */
import {
  accountHasRegistrationRow,
  listDuePossible,
  markClassFull,
  noteSlotSettled,
  noteSlotSettledPart,
  notePossiblePart,
  ownRegistrationPart,
  readRegistration,
  releaseSlot,
  reserveSlot,
  settlePossiblePart,
  slotCountPart,
  slotNotePart,
  slotReleasePart,
  slotUsePart,
} from '../db/repositories/registration-slot-repository';
import type { SlotStore } from '../domain/add-device/slot-store';
import { wireStores } from '../domain/stores';

export const dynamoSlotStore: SlotStore = {
  reserve: reserveSlot,
  release: releaseSlot,
  markClassFull,
  releasePart: slotReleasePart,
  usePart: slotUsePart,
  countPart: slotCountPart,
  readRegistration,
  ownPart: ownRegistrationPart,
  notePossiblePart,
  listDuePossible,
  settlePossiblePart,
  hasRegistrationRow: accountHasRegistrationRow,
  notePart: slotNotePart,
  noteSettled: noteSlotSettled,
  noteSettledPart: noteSlotSettledPart,
};

wireStores({ slots: dynamoSlotStore });
