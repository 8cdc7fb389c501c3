/**
 * The ledger's rules on in-memory stores: every change is an entry numbered without a gap, `balance_after`
 * exact under concurrency, a debit the balance does not cover writes nothing, a balance from before the ledger
 * becomes its opening entry, a lost race retries on the head that won. That the user item and the entries are
 * written in one conditional transaction (so these rules hold on DynamoDB) is proven on DynamoDB Local by
 * `ledger.db.test.ts` ("20 concurrent changes of one user", "written with the money").
 */
import { writeWithLedger } from '../../shared/domain/ledger/ledger';
import { IMPORT_NOTE, importOpeningBalance } from '../../shared/domain/ledger/opening-balance';
import type { LedgerChange, LedgerEntry } from '../../shared/records/ledger-entry';
import { useMemoryStores, type MemoryLedgerStore } from '../support/memory-stores';

let ledger: MemoryLedgerStore;
beforeEach(() => {
  ledger = useMemoryStores().ledger;
});

const at = 1_700_000_000;
const change = (amount: number, kind: LedgerChange['kind'] = amount < 0 ? 'charge' : 'credit'): LedgerChange => ({ amount, kind, ref: {}, at });
const rows = (entries: LedgerEntry[]) => entries.map((e) => [e.seq, e.kind, e.amount, e.balanceAfter]);

describe('writeWithLedger', () => {
  test('each change is the next entry, and balance_after runs through them', async () => {
    ledger.addUser('u1');
    await writeWithLedger({ userId: 'u1', change: { ...change(1_000, 'opening'), ref: { note: 'balance at creation' } } });
    const outcome = await writeWithLedger({ userId: 'u1', change: { ...change(250), ref: { note: 'bank transfer #17' } } });
    expect(outcome).toMatchObject({ ok: true, entry: { seq: 2, balanceAfter: 1_250, ref: { note: 'bank transfer #17' } }, after: { balance: 1_250, seq: 2 } });
    expect(rows(ledger.list('u1'))).toEqual([
      [1, 'opening', 1_000, 1_000],
      [2, 'credit', 250, 1_250],
    ]);
    expect(ledger.head('u1')).toMatchObject({ balance: 1_250, seq: 2 });
  });

  test('20 concurrent changes of one user: seq 1…21 without a gap, each balance_after exact, the sum the balance', async () => {
    ledger.addUser('u1');
    await writeWithLedger({ userId: 'u1', change: change(10_000, 'opening') });
    const amounts = Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? -(100 + i) : 50 + i));
    const outcomes = await Promise.all(amounts.map((amount) => writeWithLedger({ userId: 'u1', change: change(amount) })));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    // They did race: more tries than changes.
    expect(ledger.appends).toBeGreaterThan(21);
    const entries = ledger.list('u1');
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    let running = 0;
    for (const entry of entries) {
      running += entry.amount;
      expect(entry.balanceAfter).toBe(running);
    }
    expect(ledger.head('u1')!.balance).toBe(10_000 + amounts.reduce((a, b) => a + b, 0));
  }, 60_000);

  test('a debit the balance does not cover writes nothing, not even an entry', async () => {
    ledger.addUser('u1');
    await writeWithLedger({ userId: 'u1', change: change(100, 'opening') });
    expect(await writeWithLedger({ userId: 'u1', change: change(-101) })).toMatchObject({ ok: false, reason: 'not_covered', head: { balance: 100 } });
    expect(ledger.list('u1')).toHaveLength(1);
    expect(ledger.head('u1')!.balance).toBe(100);
  });

  test('the operator may take a balance below zero when asked to', async () => {
    ledger.addUser('u1');
    const outcome = await writeWithLedger({ userId: 'u1', change: change(-40, 'credit'), allowNegative: true });
    expect(outcome).toMatchObject({ ok: true, after: { balance: -40 } });
  });

  test('a balance that predates the ledger becomes its opening entry with the first change', async () => {
    ledger.addUser('u1', 700);
    await writeWithLedger({ userId: 'u1', change: change(300) });
    expect(rows(ledger.list('u1'))).toEqual([
      [1, 'opening', 700, 700],
      [2, 'credit', 300, 1_000],
    ]);
    expect(ledger.list('u1')[0]!.ref).toEqual({ note: 'balance before the ledger' });
  });

  test('an unknown user: user_not_found, nothing written', async () => {
    expect(await writeWithLedger({ userId: 'nobody', change: change(5) })).toEqual({ ok: false, reason: 'user_not_found' });
    expect(ledger.list('nobody')).toEqual([]);
  });

  test('a lost race is retried on the head the store handed back, without reading it again', async () => {
    ledger.addUser('u1');
    await writeWithLedger({ userId: 'u1', change: change(500, 'opening') });
    const readsBefore = ledger.reads;
    // The caller's head is stale (read before another change got there first): the store hands back the winner.
    const stale = { userId: 'u1', tenantId: 'default', balance: 1_000, seq: 0 };
    const outcome = await writeWithLedger({ userId: 'u1', head: stale, change: change(-200) });
    expect(outcome).toMatchObject({ ok: true, entry: { seq: 2, balanceAfter: 300 } });
    expect(ledger.reads).toBe(readsBefore);
  });

  test('a change made from the head decides on the head it lands on', async () => {
    ledger.addUser('u1');
    await writeWithLedger({ userId: 'u1', change: change(900, 'opening') });
    const stale = { userId: 'u1', tenantId: 'default', balance: 0, seq: 0 };
    // Half the balance: computed again on the head that won, not on the stale one.
    const outcome = await writeWithLedger({ userId: 'u1', head: stale, change: (head) => change(-head.balance / 2) });
    expect(outcome).toMatchObject({ ok: true, entry: { amount: -450, balanceAfter: 450 } });
  });
});

describe('importOpeningBalance (a migrated user’s panel balance)', () => {
  test('the first entry, once: a dry run writes nothing, a second run changes nothing', async () => {
    ledger.addUser('u1');
    expect(await importOpeningBalance({ userId: 'u1', cents: 12_345, now: at, dryRun: true })).toEqual({ outcome: 'would_import', balance: 12_345 });
    expect(ledger.list('u1')).toEqual([]);
    expect(await importOpeningBalance({ userId: 'u1', cents: 12_345, now: at, dryRun: false })).toEqual({ outcome: 'imported', balance: 12_345 });
    expect(ledger.list('u1')).toEqual([expect.objectContaining({ seq: 1, kind: 'opening', amount: 12_345, ref: { note: IMPORT_NOTE } })]);
    expect(await importOpeningBalance({ userId: 'u1', cents: 12_345, now: at, dryRun: false })).toEqual({ outcome: 'unchanged', balance: 12_345 });
    expect(ledger.list('u1')).toHaveLength(1);
  });

  test('a user with a ledger already, or another amount than the earlier import, is refused', async () => {
    ledger.addUser('u1');
    await writeWithLedger({ userId: 'u1', change: change(100) });
    await expect(importOpeningBalance({ userId: 'u1', cents: 500, now: at, dryRun: false })).rejects.toMatchObject({ reason: 'ledger_exists' });
    ledger.addUser('u2');
    await importOpeningBalance({ userId: 'u2', cents: 500, now: at, dryRun: false });
    await expect(importOpeningBalance({ userId: 'u2', cents: 600, now: at, dryRun: false })).rejects.toMatchObject({ reason: 'ledger_exists' });
    expect(ledger.list('u1')).toHaveLength(1);
    expect(ledger.list('u2')).toHaveLength(1);
  });

  test('a change that lands first wins: the import is refused rather than written as a second entry', async () => {
    ledger.addUser('u1');
    const [credited, imported] = await Promise.allSettled([
      writeWithLedger({ userId: 'u1', change: change(100) }),
      importOpeningBalance({ userId: 'u1', cents: 500, now: at, dryRun: false }),
    ]);
    expect(credited).toMatchObject({ status: 'fulfilled', value: { ok: true } });
    expect(imported).toMatchObject({ status: 'rejected', reason: { reason: 'ledger_exists' } });
    expect(rows(ledger.list('u1'))).toEqual([[1, 'credit', 100, 100]]);
  });

  test('an unknown user is refused by name', async () => {
    await expect(importOpeningBalance({ userId: 'nobody', cents: 1, now: at, dryRun: false })).rejects.toMatchObject({ reason: 'user_not_found' });
  });
});
