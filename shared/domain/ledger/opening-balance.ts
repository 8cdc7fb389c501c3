/**
 * A migrated user's balance from the panel they come from: the first entry of their ledger (`opening`), so
 * their ledger adds up from the start. Once per user, safe to run again: the entry's condition is that the
 * user has no ledger yet, and a re-run that finds this same opening entry changes nothing.
 */
import { RuleError } from '../errors';
import { store } from '../stores';
import type { LedgerEntry, LedgerHead } from '../../records/ledger-entry';
import { writeWithLedger } from './ledger';

export const IMPORT_NOTE = 'opening balance imported from the PHP panel';

export type OpeningOutcome = { outcome: 'imported' | 'would_import' | 'unchanged'; balance: number };

const userNotFound = (userId: string) => new RuleError('user_not_found', `unknown user ${userId}`);

/** The user's first entry, when it is this import's. */
async function earlierImport(userId: string): Promise<LedgerEntry | undefined> {
  for await (const entry of store('ledger').entries(userId)) return entry.kind === 'opening' && entry.ref.note === IMPORT_NOTE ? entry : undefined;
  return undefined;
}

function refuseLedger(head: LedgerHead): never {
  throw new RuleError('ledger_exists', `user ${head.userId} already has a ledger (${head.seq} entries): add to the balance with user credit instead`);
}

export async function importOpeningBalance(input: { userId: string; cents: number; now: number; dryRun: boolean }): Promise<OpeningOutcome> {
  const head = await store('ledger').readHead(input.userId);
  if (!head) throw userNotFound(input.userId);
  if (head.seq !== 0) {
    const earlier = await earlierImport(input.userId);
    if (earlier && earlier.amount === input.cents) return { outcome: 'unchanged', balance: head.balance };
    refuseLedger(head);
  }
  if (input.dryRun) return { outcome: 'would_import', balance: head.balance + input.cents };
  const written = await writeWithLedger({
    userId: input.userId,
    head,
    // Another writer got there first: this is no longer the user's first entry.
    change: (current) => (current.seq === head.seq ? { amount: input.cents, kind: 'opening', ref: { note: IMPORT_NOTE }, at: input.now } : refuseLedger(current)),
  });
  if (!written.ok) throw userNotFound(input.userId);
  return { outcome: 'imported', balance: written.after.balance };
}
