import * as z from 'zod/mini';
import { ledgerEntries } from '../../../shared/db/repositories/ledger-repository';
import { entryView, LEDGER_REF_FIELDS, type LedgerEntryView } from '../../../shared/records/ledger-entry';
import { checkLedger, reconcileUser } from '../../../shared/domain/ledger/reconcile';
import { rebuildTallies, rebuildUserTallies } from '../../../shared/domain/ledger/tally-rebuild';
import { requireUser } from '../../../shared/domain/users/user-service';
import { EXIT_STATUS, RAW_TEXT, flagText, parseFlags, type Command } from '../cli-types';

const CSV_COLUMNS = ['seq', 'time', 'kind', 'amount', 'balance_after', ...LEDGER_REF_FIELDS] as const;

/** RFC 4180: a value with a comma, quote or line break is quoted, quotes doubled. */
const csvCell = (value: unknown) => {
  const text = value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const ledgerCommands: Record<string, Command> = {
  /** A user's whole ledger, oldest first: JSON, or CSV with `--csv`. */
  'user ledger': async (flags) => {
    const f = parseFlags(flags, { user: flagText(), csv: z.optional(z.literal(true, { error: 'takes no value' })) });
    const user = await requireUser(f.user);
    const entries: LedgerEntryView[] = [];
    for await (const entry of ledgerEntries(user.userId)) entries.push(entryView(entry));
    if (f.csv) {
      const rows = entries.map((entry) => CSV_COLUMNS.map((column) => csvCell(entry[column])).join(','));
      return { [RAW_TEXT]: [CSV_COLUMNS.join(','), ...rows].map((row) => `${row}\r\n`).join('') };
    }
    return { user_id: user.userId, tenant_id: user.tenantId, balance: user.balance, entries };
  },
  /** Reconciliation of every user (of one tenant, or one user): exits 1 when it finds a difference. */
  'ledger check': async (flags) => {
    const f = parseFlags(flags, { tenant: z.optional(flagText()), user: z.optional(flagText()) });
    const report = f.user !== undefined ? await checkOne(f.user) : await checkLedger(f.tenant);
    return { ok: report.differences.length === 0, ...report, [EXIT_STATUS]: report.differences.length === 0 ? 0 : 1 };
  },
  /** Every user's day and month tallies (of one tenant, or one user) set again from the ledger's entries. */
  'ledger tallies': async (flags) => {
    const f = parseFlags(flags, { tenant: z.optional(flagText()), user: z.optional(flagText()) });
    if (f.user === undefined) return rebuildTallies(f.tenant);
    const user = await requireUser(f.user);
    return { users: 1, periods: await rebuildUserTallies({ userId: user.userId, tenantId: user.tenantId, balance: user.balance, seq: user.ledgerSeq }) };
  },
};

async function checkOne(userId: string) {
  const user = await requireUser(userId);
  const one = await reconcileUser({ userId: user.userId, tenantId: user.tenantId, balance: user.balance, seq: user.ledgerSeq });
  return { users: 1, entries: one.entries, holds_in_flight: one.holds_in_flight.length, differences: one.differences };
}
