import { pendingPurges, purgeSourceItems } from '../../db/repositories/source-lifecycle-repository';

/**
 * The purge job: finishes the sources whose delete left items behind (a delete removes what it can in a few
 * seconds), within `budgetMs`. The rest waits for the next run.
 */
export async function runSourcePurge(options: { budgetMs?: number } = {}): Promise<{ purged: number; pending: number }> {
  const deadline = Date.now() + (options.budgetMs ?? 30_000);
  let purged = 0;
  let pending = 0;
  for await (const sourceId of pendingPurges()) {
    if (Date.now() < deadline && (await purgeSourceItems(sourceId, deadline))) purged++;
    else pending++;
  }
  return { purged, pending };
}
