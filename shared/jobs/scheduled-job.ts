/**
 * The Lambda handler of a scheduled job. A run holds the job's lease for as long as Lambda can let it run,
 * so an overlapping invocation (a late schedule, a manual invoke) skips instead of doing the same work twice.
 * The work gets a budget that ends before the function's timeout: it stops starting new items and leaves
 * the rest to the next run, which picks up where this one stopped. A failure is counted and rethrown, so
 * Lambda sends the event to the job's failure destination (it does not retry).
 */
import { nowSeconds } from '../clock';
import { logger } from '../logger';
import { jobOutcome } from '../observability/metrics';
import { withLease } from './lease';
import { LEASE_SLACK_SECONDS, RUN_SAFETY_MARGIN_MS } from './run-limits';
/** Without a Lambda context (a direct call): the budget the shortest deployed interval allows. */
const DEFAULT_REMAINING_MS = 30_000;

export interface JobRun {
  /** The domain's "now" (epoch seconds). */
  now: number;
  /** Milliseconds the work may keep starting new items. */
  budgetMs: number;
}

interface LambdaContextLike {
  getRemainingTimeInMillis(): number;
}

export function leaseKeyOf(job: string): string {
  return `job#${job}`;
}

export function scheduledJob<T>(job: string, work: (run: JobRun) => Promise<T>) {
  return async (_event?: unknown, context?: LambdaContextLike): Promise<T | { skipped: true }> => {
    const remainingMs = context?.getRemainingTimeInMillis() ?? DEFAULT_REMAINING_MS;
    const budgetMs = Math.max(0, remainingMs - RUN_SAFETY_MARGIN_MS);
    let outcome;
    try {
      outcome = await withLease(leaseKeyOf(job), Math.ceil(remainingMs / 1000) + LEASE_SLACK_SECONDS, () => work({ now: nowSeconds(), budgetMs }));
    } catch (error) {
      jobOutcome(job, 'failed');
      logger.error('Scheduled job failed', { job, error: error as Error });
      throw error;
    }
    if (!outcome.ran) {
      jobOutcome(job, 'skipped');
      logger.info('Scheduled job skipped: another run holds its lease', { job });
      return { skipped: true };
    }
    jobOutcome(job, 'run');
    return outcome.result;
  };
}
