/**
 * The slot rule (shared/domain/add-device/registration-slot.ts) on in-memory stores: an account's slots are
 * reserved up to what it has left; a slot goes back when Apple did not use it (refused, failed, class full);
 * one registration spends one slot however many adds of the UDID reserved one, and the slot is counted only
 * in the write that delivers the certificate and completes its payment. That the conditions and transactions
 * under it hold on DynamoDB (concurrent adds through the API, dead adds, late registrations) is proven on
 * DynamoDB Local by the other files of this folder (test/README.md, "Rule tests on in-memory stores").
 */
import { addSlots, NEWLY_REGISTERED, slotState, writeWithSlot, type RegistrationClaim } from '../../shared/domain/add-device/registration-slot';
import type { Account } from '../../shared/records/account';
import { slotNote } from '../../shared/records/registration';
import { useMemoryStores, type MemorySlotStore } from '../support/memory-stores';

let slots: MemorySlotStore;
beforeEach(() => {
  slots = useMemoryStores().slots;
});

const UDID = '00008030-001A2B3C4D5E6F70';
const claim = (over: Partial<RegistrationClaim> = {}): RegistrationClaim => ({ accountId: 'a1', deviceClass: 'iphone', reserved: 'iphone', udid: UDID, appleDeviceId: 'APPLE1', ...over });
/** An add's slots, on a hold of its own. */
const addOn = (holdId: string) => {
  slots.addHold(holdId);
  return addSlots(holdId, 'iphone', 'instant');
};

describe('reserving', () => {
  test('ten adds racing for an account with three slots left: three get one, each noted on its hold, none below zero', async () => {
    slots.addAccount('a1', { free: 3 });
    const adds = Array.from({ length: 10 }, (_, i) => addOn(`h${i}`));
    const won = await Promise.all(adds.map((add) => add.reserve('a1')));
    expect(won.filter(Boolean)).toHaveLength(3);
    expect(slots.account('a1').free.iphone).toBe(0);
    const noted = won.map((_, i) => slots.holdNotes(`h${i}`));
    expect(noted.filter((notes) => notes.length > 0)).toEqual([[slotNote('a1', 'iphone')], [slotNote('a1', 'iphone')], [slotNote('a1', 'iphone')]]);
    expect(won.map((w, i) => w === (noted[i]!.length === 1)).every(Boolean)).toBe(true);
  });

  test('no slot from an account that is not active, of another mode, or on a hold already settled', async () => {
    slots.addAccount('off', { status: 'revoked' });
    slots.addAccount('review', { mode: 'review' });
    slots.addAccount('a1');
    expect(await addOn('h1').reserve('off')).toBe(false);
    expect(await addOn('h2').reserve('review')).toBe(false);
    expect(await addSlots('settled-hold', 'iphone', 'instant').reserve('a1')).toBe(false);
    expect([slots.account('off').free.iphone, slots.account('review').free.iphone, slots.account('a1').free.iphone]).toEqual([100, 100, 100]);
  });
});

describe('freed when Apple did not use it', () => {
  test('given back (Apple refused, the add failed or was refunded): the slot is free again and the note settled, once', async () => {
    slots.addAccount('a1', { free: 1 });
    const add = addOn('h1');
    expect(await add.reserve('a1')).toBe(true);
    expect(await addOn('h2').reserve('a1')).toBe(false);
    await add.giveBack('a1');
    expect(slots.account('a1').free.iphone).toBe(1);
    expect(slots.holdNotes('h1')).toEqual([]);
    // The note is gone, so the sweep (which settles what is still noted) has nothing left to give back.
    expect(await slots.noteSettled('h1', slotNote('a1', 'iphone'))).toBe(false);
    expect(await addOn('h3').reserve('a1')).toBe(true);
  });

  test('Apple says the class is full: none of it is left, the reserved one included', async () => {
    slots.addAccount('a1', { free: 40 });
    const add = addOn('h1');
    await add.reserve('a1');
    await add.classFull('a1');
    expect(slots.account('a1').free).toEqual({ iphone: 0, ipad: 40, mac: 40 });
    expect(slots.holdNotes('h1')).toEqual([]);
  });
});

describe('spent on a paid, delivered certificate', () => {
  test('the add’s write counts the slot with its certificate and payment: one slot used, the certificate owns the registration', async () => {
    slots.addAccount('a1');
    await addOn('h1').reserve('a1');
    const outcome = await writeWithSlot(claim(), 'k1', NEWLY_REGISTERED, [slots.certificatePart('a1', 'APPLE1')]);
    expect(outcome).toEqual({ ok: true, isOwner: true });
    expect(slots.account('a1')).toMatchObject({ free: { iphone: 99 }, issued: { iphone: 1 } });
    expect(slots.registration(claim())).toMatchObject({ ownerKid: 'k1', slots: 0 });
    expect(await slotState(claim())).toEqual({ owned: true });
  });

  test('a payment that can no longer complete (the hold was refunded meanwhile) writes nothing: no slot counted, nobody owns the registration', async () => {
    slots.addAccount('a1');
    await addOn('h1').reserve('a1');
    const outcome = await writeWithSlot(claim(), 'k1', NEWLY_REGISTERED, [slots.certificatePart('a1', 'APPLE1', false)]);
    expect(outcome).toMatchObject({ ok: false, failed: [0], isOwner: false });
    expect(slots.account('a1')).toMatchObject({ free: { iphone: 99 }, issued: { iphone: 0 } });
    expect(slots.registration(claim())).toBeUndefined();
  });

  test('five adds of one UDID on one account, written at once: one registration, one slot used, the others given back', async () => {
    slots.addAccount('a1');
    const adds = Array.from({ length: 5 }, (_, i) => addOn(`h${i}`));
    await Promise.all(adds.map((add) => add.reserve('a1')));
    expect(slots.account('a1').free.iphone).toBe(95);
    // Each read the registration before any wrote (nobody counts it yet), then all write.
    const states = await Promise.all(adds.map(() => slotState(claim())));
    const outcomes = await Promise.all(states.map((state, i) => writeWithSlot(claim(), `k${i}`, state, [slots.certificatePart('a1', 'APPLE1')])));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(outcomes.filter((o) => o.isOwner)).toHaveLength(1);
    expect(slots.account('a1')).toMatchObject({ free: { iphone: 99 }, issued: { iphone: 1 } });
    expect(slots.registration(claim())!.ownerKid).toBe(`k${outcomes.findIndex((o) => o.isOwner)}`);
  });

  test('a registration a certificate from before owners were recorded points at is counted already: the add gives its slot back', async () => {
    slots.addAccount('a1', { free: 99 });
    slots.addLegacyRow('a1', 'APPLE1');
    await addOn('h1').reserve('a1');
    const state = await slotState(claim());
    expect(state).toEqual({ owned: true });
    expect(await writeWithSlot(claim(), 'k2', state, [slots.certificatePart('a1', 'APPLE1')])).toEqual({ ok: true, isOwner: false });
    expect(slots.account('a1')).toMatchObject({ free: { iphone: 99 }, issued: { iphone: 0 } });
  });

  test('Apple reports another class than the add reserved: the reserved slot goes back and one of Apple’s is used', async () => {
    slots.addAccount('a1');
    slots.addHold('h1');
    await addSlots('h1', 'ipad', 'instant').reserve('a1');
    const ipadAsked = claim({ deviceClass: 'iphone', reserved: 'ipad' });
    expect((await writeWithSlot(ipadAsked, 'k1', NEWLY_REGISTERED, [slots.certificatePart('a1', 'APPLE1')])).isOwner).toBe(true);
    expect(slots.account('a1')).toMatchObject({ free: { iphone: 99, ipad: 100 }, issued: { iphone: 1, ipad: 0 } });
  });
});

describe('kept while Apple’s answer is unknown', () => {
  const account = { accountId: 'a1' } as Account;
  const possible = { udid: UDID, tenantId: 't1', userId: 'u1', pool: 0 as const };

  test('the slot stays used on the registration’s record, its note moved there in the same write', async () => {
    slots.addAccount('a1');
    const add = addOn('h1');
    await add.reserve('a1');
    await add.keepPossible(account, possible);
    expect(slots.account('a1').free.iphone).toBe(99);
    expect(slots.holdNotes('h1')).toEqual([]);
    expect(slots.registration(claim())).toMatchObject({ slots: 1, queued: true, ownerKid: undefined });
    expect((await slots.listDuePossible(Math.floor(Date.now() / 1000) + 1, 10)).map((p) => p.slots)).toEqual([1]);
  });

  test('a later add delivering on that registration owns it and gives the kept slot back in its write: one slot for the one registration', async () => {
    slots.addAccount('a1');
    const first = addOn('h1');
    await first.reserve('a1');
    // The second add read the record before the first kept its slot: its write fails on the kept count, reads again, and still owns it.
    const stale = await slotState(claim());
    await first.keepPossible(account, possible);
    await addOn('h2').reserve('a1');
    expect(slots.account('a1').free.iphone).toBe(98);
    const outcome = await writeWithSlot(claim(), 'k2', stale, [slots.certificatePart('a1', 'APPLE1')]);
    expect(outcome).toEqual({ ok: true, isOwner: true });
    expect(slots.account('a1')).toMatchObject({ free: { iphone: 99 }, issued: { iphone: 1 } });
    expect(slots.registration(claim())).toMatchObject({ ownerKid: 'k2', slots: 0, queued: false });
    expect(await slots.listDuePossible(Math.floor(Date.now() / 1000) + 1, 10)).toEqual([]);
  });
});
