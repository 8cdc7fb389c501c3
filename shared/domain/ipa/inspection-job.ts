/**
 * The background inspector: reads the IPAs too large (or too slow) to read within a request, one at a time,
 * with a Lambda's whole run for each. A queued app whose download URL changed meanwhile is dropped: the edit
 * that changed it started its own inspection.
 */
import { dropInspection, queuedInspections } from '../../db/repositories/ipa-inspection-repository';
import { getApp, storeInspection } from '../../db/repositories/app-repository';
import { INSPECTION_LIMITS, inspectIpa } from './inspector';
import type { FetchOverrides } from './ipa-download';

export interface InspectorReport {
  inspected: number;
  dropped: number;
  /** Left queued: the run's budget could not fit them. */
  remaining: number;
}

export async function runIpaInspector(now: number, options: { budgetMs?: number; fetch?: FetchOverrides; jobBudgetMs?: number } = {}): Promise<InspectorReport> {
  const deadline = Date.now() + (options.budgetMs ?? 14 * 60_000);
  const report: InspectorReport = { inspected: 0, dropped: 0, remaining: 0 };
  for await (const job of queuedInspections()) {
    const left = deadline - Date.now();
    if (left < 5_000) {
      report.remaining++;
      continue;
    }
    const app = await getApp(job.source_id, job.app_id);
    if (!app || app.download_url !== job.url || app.ipa?.state !== 'pending') {
      await dropInspection(job);
      report.dropped++;
      continue;
    }
    const inspection = await inspectIpa(app.download_url.trim(), {
      maxBytes: job.max_bytes,
      timeoutMs: Math.min(options.jobBudgetMs ?? INSPECTION_LIMITS.jobBudgetMs, left - 2_000),
      onTimeout: 'fail',
      now,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    await storeInspection(app.source_id, app.id, { ...inspection, url: app.download_url });
    await dropInspection(job);
    report.inspected++;
  }
  return report;
}
