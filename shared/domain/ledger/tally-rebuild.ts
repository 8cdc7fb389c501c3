/**
 * Rebuilding a user's tallies from its entries (the operator's `ledger tallies`): for a deployment whose ledger
 * has entries from before the tallies existed, or a tally `ledger check` found wrong. Each user's tallies are
 * set from the entries up to its head, on the condition that the head has not moved (a change racing the rebuild
 * makes it read again), so a rebuild is exact while adds go on.
 */
import { ledgerEntries, readLedgerHead, scanLedgerHeads, setTalliesAt } from '../../db/repositories/ledger-repository';
import { tallyOf } from '../../records/ledger-tally';
import type { LedgerEntry, LedgerHead } from '../../records/ledger-entry';

const ATTEMPTS = 20;

/** The user's tallies set from its entries; the number of periods written. */
export async function rebuildUserTallies(first: LedgerHead): Promise<number> {
  let head: LedgerHead | undefined = first;
  for (let attempt = 0; attempt < ATTEMPTS && head; attempt++) {
    const entries: LedgerEntry[] = [];
    for await (const entry of ledgerEntries(head.userId)) if (entry.seq <= head.seq) entries.push(entry);
    const rows = [...tallyOf(entries).values()];
    if (await setTalliesAt(head, rows)) return rows.length;
    head = await readLedgerHead(head.userId);
  }
  throw new Error(`The ledger of ${first.userId} kept moving; run the rebuild again`);
}

/** Every user's tallies (of one tenant when given) rebuilt. */
export async function rebuildTallies(tenantId?: string): Promise<{ users: number; periods: number }> {
  const report = { users: 0, periods: 0 };
  for await (const head of scanLedgerHeads(tenantId)) {
    report.periods += await rebuildUserTallies(head);
    report.users++;
  }
  return report;
}
