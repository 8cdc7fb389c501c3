/**
 * Rebuilding a user's tallies from its entries (the operator's `ledger tallies`): for a deployment whose ledger
 * has entries from before the tallies existed, or a tally `ledger check` found wrong. Each user's tallies are
 * set from the entries up to its head, on the condition that the head has not moved (a change racing the rebuild
 * makes it read again), so a rebuild is exact while adds go on.
 */
import { ledgerEntries, readLedgerHead, scanLedgerHeads, setTalliesAt } from '../../db/repositories/ledger-repository';
import { tallyOf } from '../../records/ledger-tally';
import { countDevicesOf, readVersionedDeviceTally, setDeviceTally } from '../../db/repositories/device-tally-repository';
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

/**
 * The user's devices by state counted again from its certificates, written only over the count's version read
 * before counting: a certificate created or changed while it counts moves the version, and it counts again.
 * (Deployed, the count reads the owner index, which may lag a write by a moment; `ledger check` says whether
 * it came out exact.)
 */
export async function rebuildDeviceCount(userId: string): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { version } = await readVersionedDeviceTally(userId);
    if (await setDeviceTally(userId, await countDevicesOf(userId), version)) return;
  }
  throw new Error(`The devices of ${userId} kept changing; run the rebuild again`);
}

/** Every user's tallies and device counts (of one tenant when given) rebuilt. */
export async function rebuildTallies(tenantId?: string): Promise<{ users: number; periods: number }> {
  const report = { users: 0, periods: 0 };
  for await (const head of scanLedgerHeads(tenantId)) {
    report.periods += await rebuildUserTallies(head);
    await rebuildDeviceCount(head.userId);
    report.users++;
  }
  return report;
}
