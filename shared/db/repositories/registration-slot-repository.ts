/**
 * Apple slots and the registrations that spend them: every write the "one slot per registration" rule makes,
 * handed out as transaction parts (or single writes) to the add, the reservation worker and the stale-hold
 * sweep. The rule itself (who keeps a slot, who gives it back) is shared/domain/add-device/registration-slot.ts.
 *
 * - An account's free slots per device class (`free_<class>` on the account's item): an add reserves one
 *   before Apple is called, and gives it back, or records it used, in the write that accounts for it.
 * - The hold's slot notes (`slot_accounts` on the payment hold): where an add reserved a slot not yet
 *   accounted for, so the sweep can settle what a dead add left.
 * - Registrations: one record per UDID registered — or maybe registered — on an account and device class
 *   (Apple's class of the device; only slots kept while Apple's answer is unknown sit under the class the add
 *   asked for), saying who counts the one slot Apple spends on it:
 *   - `owner_kid`: the certificate whose add's reserved slot stands for the registration. Set once, by a
 *     conditional write in the same transaction that writes that certificate, so of several adds of one UDID
 *     racing on an account exactly one keeps its slot and every other gives its own back — whatever order their
 *     rows are written in. It is never removed: Apple keeps a registration (and its slot) for the membership
 *     year even when the certificate is deleted.
 *   - `slots`: slots adds kept because they did not know whether Apple registered the device (its answer was
 *     lost or came too late and a lookup did not find it yet). `queue` is `possible` while any are kept, so the
 *     reservation worker finds them once no answer can come any more (`listDuePossible`) and settles them
 *     (`settlePossibleParts`). An owner taking the registration gives them back at once.
 *
 * Records from before this table (registrations whose certificate was written without one) have a certificate
 * pointing at Apple's device id and no owner here: callers treat such a certificate as the owner.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { queueHead } from '../work-queue';
import { updateIf } from '../conditional-write';
import { itemUpdate, updatePart } from '../item-update';
import { transactionPart, transactWrite, type TransactionPart } from '../transactions';
import { freeAttr } from './account-repository';
import { accountKidsWhere } from './issued-device-repository';
import type { AccountMode, DeviceClass } from '../../records/account';
import type { PossibleRegistration, RegistrationRef, RegistrationSlots } from '../../records/registration';

const QUEUE = 'possible';
/** Settled records nobody owns (Apple never registered the UDID) stay readable for a day, then DynamoDB deletes them. */
const SETTLED_TTL_SECONDS = 24 * 60 * 60;

const keyOf = (ref: RegistrationRef) => ({ registration_id: `${ref.accountId}#${ref.deviceClass}#${ref.udid.toUpperCase()}` });

export async function readRegistration(ref: RegistrationRef): Promise<RegistrationSlots> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('registrations'), Key: keyOf(ref), ConsistentRead: true }));
  return { ownerKid: out.Item?.owner_kid === undefined ? undefined : String(out.Item.owner_kid), kept: Number(out.Item?.slots ?? 0) };
}

/**
 * The certificate `kid` becomes the registration's owner — if nobody is and `kept` slots are kept for it (those
 * go back in the same write: see the account repository's `slotUsePart`). The write fails on its
 * condition when another certificate got there first or an add kept a slot meanwhile: read the record again.
 */
export function ownRegistrationPart(ref: RegistrationRef, kid: string, kept: number): TransactionPart {
  return transactionPart({
    Update: {
      TableName: tableName('registrations'),
      Key: keyOf(ref),
      UpdateExpression: 'SET owner_kid = :kid, #slots = :zero REMOVE #queue, expires_at',
      ConditionExpression: kept === 0 ? 'attribute_not_exists(owner_kid) AND (attribute_not_exists(#slots) OR #slots = :zero)' : 'attribute_not_exists(owner_kid) AND #slots = :kept',
      ExpressionAttributeNames: { '#slots': 'slots', '#queue': 'queue' },
      ExpressionAttributeValues: { ':kid': kid, ':zero': 0, ...(kept === 0 ? {} : { ':kept': kept }) },
    },
  });
}

/** An add keeps the slot it reserved on the account: a part of the write that also settles the hold's note. */
export function notePossiblePart(possible: Omit<PossibleRegistration, 'slots' | 'ownerKid'>): TransactionPart {
  return transactionPart({
    Update: {
      TableName: tableName('registrations'),
      Key: keyOf(possible),
      UpdateExpression: 'SET #queue = :q, created_at = :at, account_id = :a, device_class = :c, udid = :u, tenant_id = :t, user_id = :user, #pool = :p ADD #slots :one REMOVE expires_at',
      ExpressionAttributeNames: { '#queue': 'queue', '#pool': 'pool', '#slots': 'slots' },
      ExpressionAttributeValues: {
        ':q': QUEUE,
        ':at': possible.notedAt,
        ':a': possible.accountId,
        ':c': possible.deviceClass,
        ':u': possible.udid,
        ':t': possible.tenantId,
        ':user': possible.userId,
        ':p': possible.pool,
        ':one': 1,
      },
    },
  });
}

/** Records with kept slots nothing has touched since `before` (epoch seconds): the answers they waited for cannot come any more. */
export async function listDuePossible(before: number, limit: number): Promise<PossibleRegistration[]> {
  const items = await queueHead({ table: 'registrations', index: 'by-queue', queue: ['queue', QUEUE], due: ['created_at', '<', before], limit });
  return items.map((i) => ({
    accountId: String(i.account_id),
    deviceClass: String(i.device_class) as DeviceClass,
    udid: String(i.udid),
    tenantId: String(i.tenant_id),
    userId: String(i.user_id),
    pool: Number(i.pool) as PossibleRegistration['pool'],
    slots: Number(i.slots ?? 0),
    notedAt: Number(i.created_at),
    ownerKid: i.owner_kid === undefined ? undefined : String(i.owner_kid),
  }));
}

/**
 * Settles the record as read (its kept slots and time unchanged, and its owner: an add that kept, owned or
 * took a slot since makes it fail, and the next pass reads it again). With `ownerKid`, that certificate (the
 * worker's kept row, written in the same transaction) becomes the owner. The caller adds the account's part.
 */
export function settlePossiblePart(possible: PossibleRegistration, now: number, ownerKid?: string): TransactionPart {
  const owned = ownerKid !== undefined || possible.ownerKid !== undefined;
  return transactionPart({
    Update: {
      TableName: tableName('registrations'),
      Key: keyOf(possible),
      // A record with an owner is kept for good; one nobody owns (Apple never registered the UDID) may go.
      UpdateExpression: `SET #slots = :zero, settled_at = :now${ownerKid !== undefined ? ', owner_kid = :kid' : ''}${owned ? '' : ', expires_at = :exp'} REMOVE #queue`,
      ConditionExpression: `#slots = :n AND created_at = :at AND ${possible.ownerKid === undefined ? 'attribute_not_exists(owner_kid)' : 'owner_kid = :was'}`,
      ExpressionAttributeNames: { '#slots': 'slots', '#queue': 'queue' },
      ExpressionAttributeValues: {
        ':zero': 0,
        ':now': now,
        ':n': possible.slots,
        ':at': possible.notedAt,
        ...(ownerKid !== undefined ? { ':kid': ownerKid } : {}),
        ...(owned ? {} : { ':exp': now + SETTLED_TTL_SECONDS }),
        ...(possible.ownerKid !== undefined ? { ':was': possible.ownerKid } : {}),
      },
    },
  });
}

// An account's free slots.

/** Takes one slot of the class if the account is still active, still in `mode` and has one left. */
export async function reserveSlot(accountId: string, deviceClass: DeviceClass, mode: AccountMode, also?: TransactionPart): Promise<boolean> {
  const free = freeAttr(deviceClass);
  const update = {
    TableName: tableName('accounts'),
    Key: { account_id: accountId },
    UpdateExpression: `SET ${free} = ${free} - :one`,
    ConditionExpression: `${free} > :zero AND #status = :active AND #mode = :mode`,
    ExpressionAttributeNames: { '#status': 'status', '#mode': 'mode' },
    ExpressionAttributeValues: { ':one': 1, ':zero': 0, ':active': 'active', ':mode': mode },
  };
  // With `also` (the payment hold's note of the slot), both in one call: reserved and noted, or neither.
  if (also) return (await transactWrite([transactionPart({ Update: update }), also])).ok;
  return (await updateIf(update)).written;
}

function slotRelease(accountId: string, deviceClass: DeviceClass, count = 1) {
  const free = freeAttr(deviceClass);
  return {
    TableName: tableName('accounts'),
    Key: { account_id: accountId },
    UpdateExpression: `SET ${free} = ${free} + :one`,
    ExpressionAttributeValues: { ':one': count },
  };
}

/** Gives a reserved slot back inside the add's transaction (Apple did not use it: the device was already there). */
export function slotReleasePart(accountId: string, deviceClass: DeviceClass, count = 1): TransactionPart {
  return transactionPart({ Update: slotRelease(accountId, deviceClass, count) });
}

/**
 * Records a slot Apple used, inside the add's transaction (the reservation already took it off `free`), and
 * gives back `release` slots kept for the same registration by adds that did not know whether Apple made it.
 * `deviceClass` is the registration's class as Apple reports it; `reserved` the class of the slot the add
 * took. When they differ the reserved slot goes back and one of Apple's class is counted instead — with no
 * condition: Apple has registered the device, so our count follows Apple's even below zero (no add of that
 * class is then reserved until it is back above).
 */
export function slotUsePart(accountId: string, deviceClass: DeviceClass, release = 0, reserved: DeviceClass = deviceClass): TransactionPart {
  const changes = new Map<DeviceClass, number>([[deviceClass, release]]);
  if (reserved !== deviceClass) {
    changes.set(reserved, 1);
    changes.set(deviceClass, release - 1);
  }
  return slotCountPart(accountId, changes, deviceClass);
}

/**
 * Adds each change to the class's free slots in one update of the account (a transaction may touch an item
 * only once); with `issued`, one more slot of that class counted as used.
 */
export function slotCountPart(accountId: string, changes: ReadonlyMap<DeviceClass, number>, issued?: DeviceClass): TransactionPart {
  const moved = [...changes].filter(([, n]) => n !== 0);
  const values: Record<string, number> = {};
  const sets = moved.map(([deviceClass, n], i) => {
    values[`:d${i}`] = n;
    return `${freeAttr(deviceClass)} = ${freeAttr(deviceClass)} + :d${i}`;
  });
  if (issued !== undefined) values[':one'] = 1;
  const change = [sets.length > 0 ? `SET ${sets.join(', ')}` : '', issued !== undefined ? 'ADD #issued :one' : ''].filter(Boolean).join(' ');
  return updatePart('accounts', { account_id: accountId }, { change, values, ...(issued !== undefined ? { names: { '#issued': `issued_${issued}` } } : {}) });
}

export async function releaseSlot(accountId: string, deviceClass: DeviceClass): Promise<void> {
  await documentClient().send(new UpdateCommand(slotRelease(accountId, deviceClass)));
}

/** Apple says the class is full: no slot of it is left, whatever our count said. */
export async function markClassFull(accountId: string, deviceClass: DeviceClass): Promise<void> {
  await documentClient().send(
    new UpdateCommand({ TableName: tableName('accounts'), Key: { account_id: accountId }, UpdateExpression: `SET ${freeAttr(deviceClass)} = :zero`, ExpressionAttributeValues: { ':zero': 0 } }),
  );
}

// The hold's slot notes.

/** The add reserved a slot on `accountId` (only while the hold is held: afterwards nobody needs to know). */
function slotNoteUpdate(holdId: string, note: string) {
  return itemUpdate('paymentHolds', { hold_id: holdId }, { change: 'ADD slot_accounts :a', when: '#state = :held', names: { '#state': 'state' }, values: { ':a': new Set([note]), ':held': 'held' } });
}

export async function noteSlotReserved(holdId: string, note: string): Promise<void> {
  await updateIf(slotNoteUpdate(holdId, note));
}

/** The note as a part of the slot's reservation, so the add spends no call of its own on it. */
export function slotNotePart(holdId: string, note: string): TransactionPart {
  return transactionPart({ Update: slotNoteUpdate(holdId, note) });
}

/**
 * The slot on `accountId` is accounted for. True for exactly one caller: whoever removes the note acts on the
 * slot (the add that gave it back, or the sweep), so a slot is never given back twice.
 */
export async function noteSlotSettled(holdId: string, note: string): Promise<boolean> {
  return (await updateIf(noteSettledUpdate(holdId, note))).written;
}

/** The same as a part of a write that accounts for the slot otherwise (a possible registration keeps it). */
export function noteSlotSettledPart(holdId: string, note: string): TransactionPart {
  return transactionPart({ Update: noteSettledUpdate(holdId, note) });
}

function noteSettledUpdate(holdId: string, note: string) {
  return itemUpdate('paymentHolds', { hold_id: holdId }, { change: 'DELETE slot_accounts :a', when: 'contains(slot_accounts, :id)', values: { ':a': new Set([note]), ':id': note } });
}

/** Whether any certificate on the account points at Apple's device `appleDeviceId` (whoever owns it). */
export async function accountHasRegistrationRow(accountId: string, appleDeviceId: string): Promise<boolean> {
  return (await accountKidsWhere(accountId, 'apple_device_id', appleDeviceId)).length > 0;
}
