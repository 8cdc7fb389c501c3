/**
 * The end of every money test: the operator's reconciliation (`ledger check`) over the tenant finds no
 * difference and no hold left in flight.
 */
import { checkLedger } from '../../shared/domain/ledger/reconcile';

/** `tenantId` undefined: every user of the file's tables. */
export async function expectLedgerAddsUp(tenantId: string | undefined): Promise<void> {
  const report = await checkLedger(tenantId);
  expect(report.differences).toEqual([]);
  expect(report.holds_in_flight).toBe(0);
  expect(report.users).toBeGreaterThan(0);
}

/** A user's ledger, oldest first, as the API and the CLI show each entry. */
export async function ledgerOf(userId: string) {
  const { ledgerEntries } = await import('../../shared/db/repositories/ledger-repository');
  const { entryView } = await import('../../shared/records/ledger-entry');
  const entries = [];
  for await (const entry of ledgerEntries(userId)) entries.push(entryView(entry));
  return entries;
}
