/**
 * Which certificate counts a registration's slot. Apple spends one slot per UDID registered on a team; every
 * add of that UDID on the account reserved one of its own. Exactly one of them keeps it: the one whose write
 * makes its certificate the registration's owner (a conditional write on the registration's record, in the
 * same transaction as the certificate). Every other gives its reserved slot back. Slots kept by adds that did
 * not know whether Apple registered the UDID go back with the owner's write.
 *
 * Before owners were recorded, "does a certificate point at the registration?" stood for "is its slot
 * counted?". That cannot see an add whose certificate is not written yet, and the soak found two slots
 * counted for one registration (and, the other way round, none).
 */
import { slotReleasePart, slotUsePart } from '../../db/repositories/account-repository';
import { accountHasRegistrationRow } from '../../db/repositories/issued-device-repository';
import { ownRegistrationPart, readRegistration, type RegistrationRef } from '../../db/repositories/registration-repository';
import { transactWrite, type TransactionOutcome, type TransactionPart } from '../../db/transactions';

/** A UDID Apple has registered on an account, and Apple's id for it. */
export interface RegistrationClaim extends RegistrationRef {
  appleDeviceId: string;
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
  return ownerKid !== undefined || accountHasRegistrationRow(claim.accountId, claim.appleDeviceId);
}

/** Reads who counts the registration's slot now. */
export async function slotState(claim: RegistrationClaim): Promise<SlotState> {
  const record = await readRegistration(claim);
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
): Promise<TransactionOutcome & { isOwner: boolean }> {
  let state = initial;
  for (let attempt = 1; attempt <= OWNERSHIP_TRIES; attempt++) {
    const slot = state.owned
      ? [slotReleasePart(claim.accountId, claim.deviceClass)]
      : [ownRegistrationPart(claim, kid, state.kept), slotUsePart(claim.accountId, claim.deviceClass, state.kept), ...ownerOnly];
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
